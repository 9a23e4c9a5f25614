// The host callback of spec §7.5: dialed at finalize when client_callback_addr is set, with the
// per-session bearer secret; tool notifications are forwarded in order; a failed dial does not
// fail the finalize.
import { afterEach, describe, expect, it } from "@jest/globals";
import { credentials, Server, ServerCredentials, type ServiceError } from "@grpc/grpc-js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  ExecuteToolRequest,
  FinalizeToolServerConfigRequest,
  GrokToolsCallbackServiceService,
  GrokToolsServiceClient,
  type FinalizeToolServerConfigResponse,
  type ToolNotificationMsg,
} from "@grok-tools/proto";
import { PROCESS_SESSION_ID, createToolsServer } from "@grok-tools/server";
import { SubagentResultMsg, type SpawnSubagentRequest } from "@grok-tools/proto";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface SpawnCall {
  request: SpawnSubagentRequest;
  auth: unknown;
  cancelled: Promise<void>;
  answer(result: Partial<SubagentResultMsg>): void;
}

async function startHost(options: { holdNotifications?: boolean } = {}): Promise<{
  address: string;
  received: { msg: ToolNotificationMsg; auth: unknown }[];
  spawns: SpawnCall[];
  nextSpawn(): Promise<SpawnCall>;
}> {
  const received: { msg: ToolNotificationMsg; auth: unknown }[] = [];
  const spawns: SpawnCall[] = [];
  const waiters: ((c: SpawnCall) => void)[] = [];
  const host = new Server();
  host.addService(GrokToolsCallbackServiceService, {
    sendNotification: (call: { request: ToolNotificationMsg; metadata: { get(k: string): unknown[] } }, cb: (e: null, r: object) => void) => {
      received.push({ msg: call.request, auth: call.metadata.get("authorization")[0] });
      // A host that never answers: the server must not wait for it.
      if (!options.holdNotifications) cb(null, {});
    },
    spawnSubagent: (
      call: { request: SpawnSubagentRequest; metadata: { get(k: string): unknown[] }; once(e: "cancelled", f: () => void): void },
      cb: (e: null, r: Partial<SubagentResultMsg>) => void,
    ) => {
      const entry: SpawnCall = {
        request: call.request,
        auth: call.metadata.get("authorization")[0],
        cancelled: new Promise<void>((resolve) => call.once("cancelled", resolve)),
        answer: (result) => cb(null, SubagentResultMsg.fromPartial(result)),
      };
      spawns.push(entry);
      waiters.shift()?.(entry);
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    host.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  cleanups.push(() => void host.forceShutdown());
  return {
    address: `127.0.0.1:${port}`,
    received,
    spawns,
    nextSpawn: () => new Promise<SpawnCall>((resolve) => (spawns.length > waiters.length ? resolve(spawns[waiters.length]!) : waiters.push(resolve))),
  };
}

const PLAN_TOOLS = [{ id: "GrokBuild:enter_plan_mode" }, { id: "GrokBuild:exit_plan_mode" }];
const TASK_TOOLS = [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:get_task_output" }, { id: "GrokBuild:kill_task" }, { id: "GrokBuild:task" }];

async function finalizeWith(
  callbackAddr: string,
  tools: { id: string }[] = PLAN_TOOLS,
  sessionId: string | null = "session-7",
): Promise<{ client: GrokToolsServiceClient; response: FinalizeToolServerConfigResponse }> {
  const dir = mkdtempSync(path.join(tmpdir(), "grok-callback-"));
  const server = createToolsServer({ workspace: dir, stateDir: path.join(dir, ".state") });
  const client = new GrokToolsServiceClient(await server.listen("127.0.0.1:0"), credentials.createInsecure());
  cleanups.push(async () => {
    client.close();
    await server.shutdown(500);
    rmSync(dir, { recursive: true, force: true });
  });
  const response = await new Promise<FinalizeToolServerConfigResponse>((resolve, reject) =>
    client.finalizeToolConfigRequest(
      FinalizeToolServerConfigRequest.fromPartial({
        tools,
        clientCallbackAddr: callbackAddr,
        clientCallbackSecret: "cb-secret",
        ...(sessionId !== null ? { sessionId } : {}),
      }),
      (e: ServiceError | null, r) => (e ? reject(e) : resolve(r)),
    ),
  );
  return { client, response };
}

function execute(client: GrokToolsServiceClient, toolName: string, input: unknown): Promise<{ ok: boolean; prompt: string; error?: string }> {
  return new Promise((resolve, reject) =>
    client.executeTool(ExecuteToolRequest.fromPartial({ toolName, inputJson: JSON.stringify(input) }), (e: ServiceError | null, r) =>
      e
        ? reject(e)
        : resolve(
            r.result?.$case === "success"
              ? { ok: true, prompt: r.result.value.promptText }
              : { ok: false, prompt: "", error: r.result?.$case === "error" ? r.result.value.message : "?" },
          ),
    ),
  );
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the host callback", () => {
  it("forwards tool notifications with the session id, a sequence and the bearer secret", async () => {
    const host = await startHost();
    const { client, response } = await finalizeWith(`http://${host.address}`);
    expect(response.success).toBe(true);
    expect(response.callbackStatus).toMatchObject({ connected: true, activeSurfaces: ["notifications"] });
    for (const tool of ["enter_plan_mode", "exit_plan_mode"]) {
      await new Promise((resolve, reject) =>
        client.executeTool(ExecuteToolRequest.fromPartial({ toolName: tool, inputJson: "{}", callId: `call-${tool}` }), (e: ServiceError | null, r) =>
          e ? reject(e) : resolve(r),
        ),
      );
    }
    const until = Date.now() + 5000;
    while (host.received.length < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.received.map((r) => [r.msg.sessionId, r.msg.sequence, (JSON.parse(r.msg.notificationJson) as { type: string }).type, r.auth])).toEqual([
      ["session-7", 0, "PlanModeEntered", "Bearer cb-secret"],
      ["session-7", 1, "PlanModeExited", "Bearer cb-secret"],
    ]);
  });

  it("still finalizes when the host cannot be reached", async () => {
    const { response } = await finalizeWith("127.0.0.1:1");
    expect(response.success).toBe(true);
    expect(response.callbackStatus).toMatchObject({ connected: false, activeSurfaces: [] });
    expect(response.callbackStatus?.message).toMatch(/^could not connect to 127\.0\.0\.1:1/);
  });

  it("reports the subagents surface with a task tool and runs children through SpawnSubagent with the bearer secret", async () => {
    const host = await startHost();
    const { client, response } = await finalizeWith(host.address, TASK_TOOLS);
    expect(response.callbackStatus).toEqual({ connected: true, activeSurfaces: ["notifications", "subagents"] });
    const started = await execute(client, "task", { prompt: "look around", description: "Look around", subagent_type: "explore" });
    expect(started.ok).toBe(true);
    const id = /subagent_id: (\S+)/.exec(started.prompt)![1]!;
    const spawn = await host.nextSpawn();
    expect(spawn.auth).toBe("Bearer cb-secret");
    expect(spawn.request).toMatchObject({
      id,
      prompt: "look around",
      description: "Look around",
      subagentType: "explore",
      parentSessionId: "session-7",
      toolNames: ["read_file"],
    });
    expect(spawn.request.systemPrompt).toContain("Tools you can use: read_file");
    spawn.answer({ success: true, output: "all quiet", toolCalls: 2, turns: 1, durationMs: 10, subagentId: "ignored", backgrounded: true });
    const done = await execute(client, "get_task_output", { task_ids: [id], timeout_ms: 10_000 });
    expect(done.prompt).toContain("Status: completed");
    expect(done.prompt).toContain(`all quiet\n\n<subagent_meta>id=${id}, type=explore, tool_calls=2, turns=1, duration_ms=10</subagent_meta>`);
    await until(() => host.received.some((r) => r.msg.notificationJson.includes("SubagentCompleted")), "SubagentCompleted");
    expect(JSON.parse(host.received.find((r) => r.msg.notificationJson.includes("SubagentCompleted"))!.msg.notificationJson)).toMatchObject({
      type: "SubagentCompleted",
      subagent_id: id,
      status: "completed",
      owner_session_id: "session-7",
    });
  });

  it("kill_task cancels the SpawnSubagent call (the host sees the cancellation)", async () => {
    const host = await startHost();
    const { client } = await finalizeWith(host.address, TASK_TOOLS);
    const id = /subagent_id: (\S+)/.exec((await execute(client, "task", { prompt: "p", description: "d" })).prompt)![1]!;
    const spawn = await host.nextSpawn();
    expect((await execute(client, "kill_task", { task_id: id })).prompt).toBe("killed: Subagent cancellation initiated");
    await spawn.cancelled;
    const out = await execute(client, "get_task_output", { task_ids: [id], timeout_ms: 10_000 });
    expect(out.prompt).toContain("Status: cancelled");
  });

  it("uses the generated process session id when finalize names none", async () => {
    const host = await startHost();
    const { client } = await finalizeWith(host.address, TASK_TOOLS, null);
    await execute(client, "task", { prompt: "p", description: "d" });
    const spawn = await host.nextSpawn();
    expect(spawn.request.parentSessionId).toBe(PROCESS_SESSION_ID);
    expect(PROCESS_SESSION_ID).toMatch(/^[0-9a-f-]{36}$/);
    spawn.answer({ success: true, output: "ok" });
    await until(() => host.received.length > 0, "a notification");
    expect(host.received[0]!.msg.sessionId).toBe(PROCESS_SESSION_ID);
  });

  it("a host that never answers notifications does not block tools; they stay queued in order", async () => {
    const host = await startHost({ holdNotifications: true });
    const { client } = await finalizeWith(host.address);
    for (let i = 0; i < 20; i++) {
      const tool = i % 2 === 0 ? "enter_plan_mode" : "exit_plan_mode";
      await expect(execute(client, tool, {})).resolves.toMatchObject({ ok: true });
    }
    // One in flight at a time, so the host sees them strictly in order (the rest wait in the queue).
    await until(() => host.received.length >= 1, "the first notification");
    expect(host.received.map((r) => r.msg.sequence)).toEqual([0]);
  });
});
