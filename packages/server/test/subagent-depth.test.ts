// The subagent depth limit (spec §4.9) through a real server (issue #15): a child connects back as
// the routed session named by its SpawnSubagentRequest.id (`x-grok-session-id`); that session is
// one level deeper than the session that spawned it, so its `task` call meets the depth limit with
// the spec's exact text. A routed session with any other id stays at depth 0.
import { afterEach, describe, expect, it } from "@jest/globals";
import { credentials, Metadata, Server, ServerCredentials, type ServiceError } from "@grpc/grpc-js";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  ExecuteToolRequest,
  FinalizeToolServerConfigRequest,
  GrokToolsCallbackServiceService,
  GrokToolsServiceClient,
  SubagentResultMsg,
  type DeepPartial,
  type ExecuteToolResponse,
  type FinalizeToolServerConfigResponse,
  type SpawnSubagentRequest,
} from "@grok-tools/proto";
import { createToolsServer, type ToolsServer } from "@grok-tools/server";

const TASK_TOOLS = [
  { id: "GrokBuild:read_file" },
  { id: "GrokBuild:run_terminal_cmd" },
  { id: "GrokBuild:get_task_output" },
  { id: "GrokBuild:kill_task" },
  { id: "GrokBuild:task" },
];
const log = { debug() {}, info() {}, warn() {}, error: (o: object, m?: string) => console.error(m, o) };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Spawn {
  request: SpawnSubagentRequest;
  answer(result: Partial<SubagentResultMsg>): void;
}

/** A callback host whose children run until the test answers them. */
async function startHost(): Promise<{ address: string; nextSpawn(): Promise<Spawn> }> {
  const spawns: Spawn[] = [];
  const waiters: ((s: Spawn) => void)[] = [];
  const host = new Server();
  host.addService(GrokToolsCallbackServiceService, {
    sendNotification: (_call: unknown, cb: (e: null, r: object) => void) => cb(null, {}),
    spawnSubagent: (call: { request: SpawnSubagentRequest }, cb: (e: null, r: SubagentResultMsg) => void) => {
      const spawn: Spawn = { request: call.request, answer: (result) => cb(null, SubagentResultMsg.fromPartial(result)) };
      const waiter = waiters.shift();
      if (waiter) waiter(spawn);
      else spawns.push(spawn);
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    host.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  cleanups.push(() => void host.forceShutdown());
  return {
    address: `127.0.0.1:${port}`,
    nextSpawn: () => new Promise<Spawn>((resolve) => (spawns.length > 0 ? resolve(spawns.shift()!) : waiters.push(resolve))),
  };
}

async function startServer(): Promise<{ server: ToolsServer; client: GrokToolsServiceClient }> {
  const dir = mkdtempSync(path.join(tmpdir(), "grok-depth-"));
  mkdirSync(path.join(dir, "ws"));
  const server = createToolsServer({ workspace: path.join(dir, "ws"), stateDir: path.join(dir, "state"), log });
  const client = new GrokToolsServiceClient(await server.listen("127.0.0.1:0"), credentials.createInsecure());
  cleanups.push(async () => {
    client.close();
    await server.shutdown(1000);
    rmSync(dir, { recursive: true, force: true });
  });
  return { server, client };
}

function md(sessionId?: string): Metadata {
  const m = new Metadata();
  if (sessionId !== undefined) m.set("x-grok-session-id", sessionId);
  return m;
}

function finalize(
  client: GrokToolsServiceClient,
  sessionId: string | undefined,
  request: DeepPartial<FinalizeToolServerConfigRequest>,
): Promise<FinalizeToolServerConfigResponse> {
  return new Promise((resolve, reject) =>
    client.finalizeToolConfigRequest(
      FinalizeToolServerConfigRequest.fromPartial({ ...request, ...(sessionId ? { sessionId } : {}) }),
      md(sessionId),
      (e: ServiceError | null, r) => (e ? reject(e) : resolve(r)),
    ),
  );
}

async function execute(
  client: GrokToolsServiceClient,
  sessionId: string | undefined,
  toolName: string,
  input: unknown,
): Promise<{ ok: boolean; text: string }> {
  const response = await new Promise<ExecuteToolResponse>((resolve, reject) =>
    client.executeTool(ExecuteToolRequest.fromPartial({ toolName, inputJson: JSON.stringify(input) }), md(sessionId), (e: ServiceError | null, r) =>
      e ? reject(e) : resolve(r),
    ),
  );
  const result = response.result;
  if (result?.$case === "success") return { ok: true, text: result.value.promptText };
  return { ok: false, text: result?.$case === "error" ? result.value.message : "?" };
}

const subagentId = (text: string) => /subagent_id: (\S+)/.exec(text)![1]!;

describe("subagent depth through routed sessions", () => {
  it("a child's own session (x-grok-session-id = its id) is at depth 1: its task call gets the depth-limit error", async () => {
    const host = await startHost();
    const { client } = await startServer();
    // The parent: the default session (no header), at depth 0, with the callback.
    expect((await finalize(client, undefined, { tools: TASK_TOOLS, clientCallbackAddr: host.address, clientCallbackSecret: "s" })).success).toBe(true);
    const started = await execute(client, undefined, "task", { prompt: "p", description: "Child" });
    expect(started.ok).toBe(true);
    const spawn = await host.nextSpawn();
    expect(spawn.request.id).toBe(subagentId(started.text));
    // At max depth 1 the child is not even offered the task tool.
    expect(spawn.request.toolNames).not.toContain("task");

    // The child connects back under its id and (ignoring its tool list) finalizes with the task tool.
    const child = spawn.request.id;
    expect(await finalize(client, child, { tools: TASK_TOOLS, clientCallbackAddr: host.address, clientCallbackSecret: "s" })).toMatchObject({ success: true });
    expect(await execute(client, child, "task", { prompt: "nested", description: "Nested" })).toEqual({
      ok: false,
      text: "Subagent depth limit exceeded (current depth: 1, max: 1). Cannot spawn further nested subagents.",
    });
    // Its other tools work as usual.
    expect(await execute(client, child, "run_terminal_cmd", { command: "echo child", description: "Echo" })).toMatchObject({ ok: true });

    // Any other routed session is a top-level one (depth 0): its task call passes the depth check.
    expect((await finalize(client, "other", { tools: TASK_TOOLS })).success).toBe(true);
    expect(await execute(client, "other", "task", { prompt: "p", description: "d" })).toEqual({
      ok: false,
      text: "SubagentBackendResource (subagent support not initialized)",
    });
    spawn.answer({ success: true, output: "done" });
  });

  it("depth follows the tree: with max_depth 2 a child may spawn, its own child is at depth 2 and may not", async () => {
    const host = await startHost();
    const { client, server } = await startServer();
    const tools = TASK_TOOLS.map((t) => (t.id === "GrokBuild:task" ? { ...t, paramsJson: '{"max_depth":2}' } : t));
    expect((await finalize(client, "root", { tools, clientCallbackAddr: host.address, clientCallbackSecret: "s" })).success).toBe(true);
    await execute(client, "root", "task", { prompt: "p", description: "Child" });
    const first = await host.nextSpawn();

    const child = first.request.id;
    expect((await finalize(client, child, { tools, clientCallbackAddr: host.address, clientCallbackSecret: "s" })).success).toBe(true);
    const nested = await execute(client, child, "task", { prompt: "p", description: "Grandchild" });
    expect(nested.ok).toBe(true);
    const second = await host.nextSpawn();
    expect(second.request.parentSessionId).toBe(child);
    // The grandchild is not offered the task tool (depth 2 = max).
    expect(second.request.toolNames).not.toContain("task");

    const grandchild = second.request.id;
    expect((await finalize(client, grandchild, { tools })).success).toBe(true);
    expect(await execute(client, grandchild, "task", { prompt: "p", description: "d" })).toEqual({
      ok: false,
      text: "Subagent depth limit exceeded (current depth: 2, max: 2). Cannot spawn further nested subagents.",
    });
    second.answer({ success: true, output: "grandchild done" });
    first.answer({ success: true, output: "child done" });
    expect(server.sessions.peek(child)).toBeDefined();
  });
});
