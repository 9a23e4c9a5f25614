/**
 * The deprecated RPC handlers over a real session (no network): wire mapping and statuses.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Metadata, status as GrpcStatus, type handleUnaryCall } from "@grpc/grpc-js";
import { Session, ToolRegistry, parseAgentDefinition } from "@grok-tools/runtime/host";
import { Type, defineNamespace, defineTool } from "@grok-tools/runtime";
import { silentLogger } from "@grok-tools/runtime/helpers";
import { createDeprecatedHandlers } from "../src/grpc/deprecated-rpcs.js";
import { createToolsService } from "../src/grpc/tools-service.js";

const echo = defineTool({
  id: "echo",
  kind: "other",
  description: "Echo ${{ tools.by_kind.read }}.",
  input: Type.Object({ text: Type.String() }),
  output: Type.Object({ type: Type.Literal("Text"), text: Type.String() }),
  params: { resourceId: "test.Echo", schema: Type.Object({ loud: Type.Boolean() }), defaults: { loud: false } },
  async execute(input, ctx) {
    return { output: { type: "Text" as const, text: input.text }, promptText: ctx.params.loud ? input.text.toUpperCase() : input.text };
  },
});
const ns = defineNamespace({ name: "Test", apiVersion: 1, tools: [echo] });

let root: string;
let session: Session;
let handlers: ReturnType<typeof createDeprecatedHandlers>;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "grok-deprecated-"));
  const agent = parseAgentDefinition(
    "---\nname: echoer\ntools: [echo]\ncompletion_requirement: {tool: echo, reminder: say it}\n---\nUse ${{ tools.by_kind.other }}.",
    "markdown",
  );
  session = new Session({ registry: ToolRegistry.of([ns]), workspace: root, stateDir: path.join(root, "state"), agent });
  handlers = createDeprecatedHandlers({ sessionFor: () => session, admit: () => undefined, log: silentLogger });
});
afterEach(async () => {
  await session.close();
  await rm(root, { recursive: true, force: true });
});

/** Calls a unary handler and resolves with its response or rejects with its status error. */
function call<Req, Res>(fn: handleUnaryCall<Req, Res>, request: Req): Promise<Res> {
  return new Promise((resolve, reject) => {
    fn({ request, metadata: new Metadata() } as never, (error, value) => (error ? reject(error as Error) : resolve(value as Res)));
  });
}

it("maps the pre-finalize configuration RPCs and FinalizeAgent", async () => {
  expect(await call(handlers.setToolOverride, { toolName: "echo", toolNameForModel: "say", paramNameOverridesForModel: { text: "words" } })).toEqual({
    success: true,
    message: "Overrides set for Test:echo",
  });
  expect(await call(handlers.setToolOptions, { toolName: "echo", optionsJson: '{"loud":true}', replace: false })).toEqual({
    success: true,
    message: "",
    effectiveOptionsJson: '{"loud":true}',
  });
  expect(await call(handlers.getToolOptions, { toolName: "echo", includeSchema: false })).toEqual({
    toolName: "Test:echo",
    effectiveOptionsJson: '{"loud":true}',
    defaultOptionsJson: '{"loud":false}',
    configuredOptionsJson: '{"loud":true}',
  });
  await expect(call(handlers.getToolOptions, { toolName: "nope", includeSchema: false })).rejects.toMatchObject({ code: GrpcStatus.NOT_FOUND });
  expect(await call(handlers.getSystemPrompt, { variant: "" })).toEqual({ systemPrompt: "Use say.", promptMode: "full" });
  expect(await call(handlers.finalizeAgent, {})).toEqual({ success: true, systemPrompt: "Use say." });
  await expect(call(handlers.setToolOverride, { toolName: "echo", toolNameForModel: "x", paramNameOverridesForModel: {} })).rejects.toMatchObject({
    code: GrpcStatus.FAILED_PRECONDITION,
  });
  await expect(call(handlers.enableTool, { toolName: "echo" })).rejects.toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION });
  const r = await session.execute({ toolName: "say", inputJson: '{"words":"hi"}' });
  expect(r.ok && r.promptText).toBe("HI");
  expect(await call(handlers.getCompletionState, {})).toEqual({ hasRequirement: true, requiredTool: "echo", completed: true });
  expect(await call(handlers.resetCompletionState, {})).toEqual({});
  expect(await call(handlers.getCompletionState, {})).toEqual({ hasRequirement: true, requiredTool: "echo", completed: false });
});

it("maps the switches and agent info", async () => {
  expect(await call(handlers.setSystemReminders, { enabled: true })).toEqual({ success: true, message: "System reminders enabled", enabled: true });
  expect(await call(handlers.getSystemReminders, {})).toEqual({ enabled: true });
  expect(await call(handlers.setTruncationConfig, { config: { defaultMaxOutputBytes: 100, perToolMaxOutputBytes: { echo: 5 }, maxLinesRead: 9 } })).toEqual({});
  expect(await call(handlers.getTruncationConfig, {})).toEqual({ config: { defaultMaxOutputBytes: 100, perToolMaxOutputBytes: { echo: 5 }, maxLinesRead: 9 } });
  expect(await call(handlers.getAgentInfo, {})).toEqual({
    name: "echoer",
    description: "",
    tools: ["echo"],
    disallowedTools: [],
    permissionMode: "",
    outputFormat: "",
    completionRequirement: { tool: "echo", reminder: "say it" },
    toolConfig: {},
  });
  expect(await call(handlers.disableTool, { toolName: "echo" })).toEqual({ success: true, message: "Tool Test:echo disabled" });
  expect(await call(handlers.enableTool, { toolName: "nope" })).toEqual({ success: false, message: "Tool not found: nope" });
  expect(await call(handlers.resetToolOptions, { toolName: "echo", keysToReset: [] })).toEqual({
    success: true,
    message: "",
    effectiveOptionsJson: '{"loud":false}',
  });
  expect(await call(handlers.clearToolOverride, { toolName: "echo" })).toEqual({ success: true, message: "No overrides set for Test:echo" });
});

it("is what the tools service routes the deprecated RPCs to", async () => {
  const service = createToolsService({ sessionFor: () => session, admit: () => undefined, log: silentLogger }) as unknown as typeof handlers;
  expect(await call(service.enableTool, { toolName: "echo" })).toEqual({ success: true, message: "Tool Test:echo is already enabled" });
  expect(await call(service.getSystemPrompt, { variant: "full" })).toEqual({ systemPrompt: "Use echo.", promptMode: "full" });
});
