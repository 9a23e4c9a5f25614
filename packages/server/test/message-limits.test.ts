// The server's message limit (issue 23.2): a unary ExecuteTool result that would not fit answers a
// tool error saying the call completed, instead of a RESOURCE_EXHAUSTED after the effect; streaming
// sends the same result in chunks. The real server on loopback, with a small limit for the test.
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { credentials, Metadata, type ServiceError } from "@grpc/grpc-js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ErrorCode as ProtoErrorCode, GrokToolsServiceClient, MAX_MESSAGE_BYTES, type ExecuteToolResponse, type ToolStreamChunk } from "@grok-tools/proto";
import { defineNamespace, defineTool, Type } from "@grok-tools/runtime";
import { createToolsServer, type ToolsServer } from "@grok-tools/server";

const LIMIT_BYTES = 256 * 1024;
let runs = 0;
const big = defineTool({
  id: "big",
  kind: "other",
  description: "Returns `size` bytes.",
  input: Type.Object({ size: Type.Integer() }),
  output: Type.Object({ type: Type.Literal("Big"), text: Type.String() }),
  async execute(input) {
    runs++;
    const text = "x".repeat(input.size);
    return { output: { type: "Big" as const, text }, promptText: text };
  },
});

let dir: string;
let server: ToolsServer;
let client: GrokToolsServiceClient;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "grok-limits-"));
  server = createToolsServer({
    workspace: dir,
    stateDir: path.join(dir, ".state"),
    builtinNamespaces: [defineNamespace({ name: "Test", apiVersion: 1, tools: [big] })],
    maxMessageBytes: LIMIT_BYTES,
  });
  client = new GrokToolsServiceClient(await server.listen("127.0.0.1:0"), credentials.createInsecure(), {
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
  });
  await new Promise((resolve, reject) =>
    client.finalizeToolConfigRequest({ tools: [{ id: "Test:big", paramsNameOverrides: {} }] } as never, new Metadata(), (e: ServiceError | null, r: unknown) =>
      e ? reject(e) : resolve(r),
    ),
  );
});

afterAll(async () => {
  client.close();
  await server.shutdown(500);
  rmSync(dir, { recursive: true, force: true });
});

function execute(size: number): Promise<ExecuteToolResponse> {
  return new Promise((resolve, reject) =>
    client.executeTool({ toolName: "big", inputJson: JSON.stringify({ size }) } as never, new Metadata(), (e: ServiceError | null, r: ExecuteToolResponse) =>
      e ? reject(e) : resolve(r),
    ),
  );
}

it("answers a result under the limit as usual", async () => {
  const response = await execute(1000);
  expect(response.result?.$case).toBe("success");
});

it("turns a result over the limit into EXECUTION_FAILED that says the call completed", async () => {
  const before = runs;
  const response = await execute(200 * 1024);
  expect(runs).toBe(before + 1);
  if (response.result?.$case !== "error") throw new Error("expected an error result");
  const limit = LIMIT_BYTES - 64 * 1024;
  expect(response.result.value).toMatchObject({
    code: ProtoErrorCode.ERROR_CODE_EXECUTION_FAILED,
    // prompt_text plus output_json ({"type":"Big","text":"…"}: 24 bytes around the text).
    message: `The result of big is ${2 * 200 * 1024 + 24} bytes, more than the ${limit}-byte reply limit, so it was not sent. The call itself completed: anything it changed is changed, so check that before running it again.`,
    retryable: false,
  });
});

it("streams the same result in chunks", async () => {
  const chunks: ToolStreamChunk[] = [];
  await new Promise<void>((resolve, reject) => {
    const stream = client.executeToolStream({ toolName: "big", inputJson: JSON.stringify({ size: 200 * 1024 }) } as never);
    stream.on("data", (chunk: ToolStreamChunk) => chunks.push(chunk));
    stream.on("error", reject);
    stream.on("end", resolve);
  });
  const final = chunks.at(-1)!.chunk;
  if (final?.$case !== "finalResult") throw new Error("expected a final result");
  expect(final.value.promptTextSize).toBe(200 * 1024);
  expect(final.value.error).toBeUndefined();
});
