/**
 * A call whose client cancelled before the handler ran (a busy server reads the cancel first) must
 * reach the tool already cancelled: grpc-js emitted its "cancelled" event before anyone listened,
 * so only `call.cancelled` tells. Found by the shell-process queue test under load: a cancelled
 * queued command still ran once a place freed up.
 */
import { EventEmitter } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Metadata, type ServiceError } from "@grpc/grpc-js";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { Type, defineNamespace, defineTool } from "@grok-tools/runtime";
import { silentLogger } from "@grok-tools/runtime/helpers";
import type { ExecuteToolRequest, ExecuteToolResponse } from "@grok-tools/proto";
import { createToolsService } from "../src/grpc/tools-service.js";

/** Answers whether its call was cancelled, waiting up to 5 s for a cancellation that comes late. */
const probe = defineTool({
  id: "probe",
  kind: "other",
  description: "Probe.",
  input: Type.Object({}),
  output: Type.Object({ type: Type.Literal("Text"), text: Type.String() }),
  async execute(_input, ctx) {
    const cancelled =
      ctx.signal.aborted ||
      (await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 5_000);
        ctx.signal.addEventListener("abort", () => (clearTimeout(timer), resolve(true)), { once: true });
      }));
    const text = cancelled ? "cancelled" : "ran";
    return { output: { type: "Text" as const, text }, promptText: text };
  },
});

let root: string;
let session: Session;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "grok-cancel-early-"));
  session = new Session({
    registry: ToolRegistry.of([defineNamespace({ name: "Test", apiVersion: 1, tools: [probe] })]),
    workspace: root,
    stateDir: path.join(root, "state"),
  });
  const finalized = await session.finalize({ tools: [{ id: "Test:probe" }] });
  if (!finalized.ok) throw new Error(finalized.message);
});
afterEach(async () => {
  await session.close();
  await rm(root, { recursive: true, force: true });
});

/** A unary call object as grpc-js hands it over once the client's cancel was already processed. */
function alreadyCancelledCall(request: Partial<ExecuteToolRequest>) {
  return Object.assign(new EventEmitter(), { request, metadata: new Metadata(), cancelled: true });
}

it("a call cancelled before its handler ran reaches the tool cancelled", async () => {
  const service = createToolsService({ sessionFor: () => session, admit: () => undefined, log: silentLogger });
  const handler = service.executeTool as (call: unknown, callback: (error: ServiceError | null, value?: ExecuteToolResponse) => void) => void;
  const response = await new Promise<ExecuteToolResponse | undefined>((resolve, reject) =>
    handler(alreadyCancelledCall({ toolName: "probe", inputJson: "{}" }), (error, value) => (error ? reject(error) : resolve(value))),
  );
  // Whatever the shape of a cancelled answer, the tool must not have run as if nobody had cancelled.
  expect(JSON.stringify(response)).not.toContain('"ran"');
});
