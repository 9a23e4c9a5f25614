// Many sessions in one server (issue #16): `x-grok-session-id` routing, isolation under concurrent
// calls, idle eviction with warm start, and the session limits, against the real server.
import { afterEach, describe, expect, it } from "@jest/globals";
import { credentials, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient, type ExecuteToolResponse } from "@grok-tools/proto";
import { createPrometheusMetrics, createToolsServer, serveMetrics, type MetricsEndpoint, type ToolsServer, type ToolsServerOptions } from "@grok-tools/server";

const TOOLS = [
  { id: "GrokBuild:todo_write" },
  { id: "GrokBuild:read_file" },
  { id: "GrokBuild:search_replace" },
  { id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":true}' },
  { id: "GrokBuild:kill_task" },
  { id: "GrokBuild:get_task_output" },
];
const log = { debug() {}, info() {}, warn() {}, error: (o: object, m?: string) => console.error(m, o) };

const opened: { server: ToolsServer; client: GrokToolsServiceClient; dir: string }[] = [];

async function start(overrides: Partial<ToolsServerOptions> = {}, dir = mkdtempSync(path.join(tmpdir(), "grok-sessions-"))) {
  const server = createToolsServer({ workspace: path.join(dir, "ws"), stateDir: path.join(dir, "state"), log, ...overrides });
  const address = await server.listen("127.0.0.1:0");
  const client = new GrokToolsServiceClient(address, credentials.createInsecure());
  opened.push({ server, client, dir });
  return { server, client, dir };
}

function workspaceOf(dir: string): string {
  const ws = path.join(dir, "ws");
  mkdirSync(ws, { recursive: true });
  return ws;
}

const endpoints: MetricsEndpoint[] = [];

afterEach(async () => {
  for (const endpoint of endpoints.splice(0)) await endpoint.close();
  for (const { server, client, dir } of opened.splice(0)) {
    client.close();
    await server.shutdown(1000);
    rmSync(dir, { recursive: true, force: true });
  }
});

function md(sessionId?: string): Metadata {
  const m = new Metadata();
  if (sessionId !== undefined) m.set("x-grok-session-id", sessionId);
  return m;
}

function unary<Res>(client: GrokToolsServiceClient, method: string, request: unknown, metadata: Metadata): Promise<Res> {
  return new Promise((resolve, reject) => {
    const fn = (client as unknown as Record<string, (r: unknown, m: Metadata, cb: (e: ServiceError | null, r: Res) => void) => void>)[method]!;
    fn.call(client, request, metadata, (error, response) => (error ? reject(error) : resolve(response)));
  });
}

const finalize = (client: GrokToolsServiceClient, sessionId: string | undefined, extra: object = {}) =>
  unary<{ success: boolean; message: string }>(
    client,
    "finalizeToolConfigRequest",
    FinalizeToolServerConfigRequest.fromPartial({ tools: TOOLS, ...extra }),
    md(sessionId),
  );

async function run(client: GrokToolsServiceClient, sessionId: string | undefined, toolName: string, input: object, options: object = {}) {
  const request = ExecuteToolRequest.fromPartial({ toolName, inputJson: JSON.stringify(input), options });
  const response = await unary<ExecuteToolResponse>(client, "executeTool", request, md(sessionId));
  if (response.result?.$case === "success")
    return { ok: true as const, output: JSON.parse(response.result.value.outputJson) as Record<string, unknown>, text: response.result.value.promptText };
  return { ok: false as const, error: response.result?.value as { code: number; message: string } };
}

async function state(client: GrokToolsServiceClient, sessionId: string | undefined): Promise<{ state?: Record<string, unknown> }> {
  const answer = await unary<{ stateJson: string }>(client, "getToolState", {}, md(sessionId));
  return JSON.parse(answer.stateJson) as { state?: Record<string, unknown> };
}

const todos = (s: { state?: Record<string, unknown> }) => JSON.stringify(s.state ?? {});

function newDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "grok-sessions-"));
  workspaceOf(dir);
  writeFileSync(path.join(dir, "ws", "shared.txt"), "alpha beta\n");
  return dir;
}

describe("x-grok-session-id routing", () => {
  it("keeps todo lists, read records, tasks and state files of two sessions apart under concurrent calls", async () => {
    const dir = newDir();
    const { server, client } = await start({}, dir);
    await Promise.all([finalize(client, "alice"), finalize(client, "bob")]);

    // Concurrent todo writes: each session ends with only its own items.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => [
        run(client, "alice", "todo_write", { merge: true, todos: [{ id: `a${i}`, content: `alice ${i}`, status: "pending" }] }),
        run(client, "bob", "todo_write", { merge: true, todos: [{ id: `b${i}`, content: `bob ${i}`, status: "pending" }] }),
      ]).flat(),
    );
    const [aliceState, bobState] = await Promise.all([state(client, "alice"), state(client, "bob")]);
    for (let i = 0; i < 8; i++) {
      expect(todos(aliceState)).toContain(`alice ${i}`);
      expect(todos(bobState)).toContain(`bob ${i}`);
    }
    expect(todos(aliceState)).not.toContain("bob ");
    expect(todos(bobState)).not.toContain("alice ");

    // Read tracker: alice read the file, so alice may edit it; bob did not, so bob may not.
    expect((await run(client, "alice", "read_file", { target_file: "shared.txt" })).ok).toBe(true);
    const bobEdit = await run(client, "bob", "search_replace", { file_path: "shared.txt", old_string: "alpha", new_string: "BOB" });
    expect(bobEdit.ok).toBe(false);
    const aliceEdit = await run(client, "alice", "search_replace", { file_path: "shared.txt", old_string: "alpha", new_string: "ALICE" });
    expect(aliceEdit).toMatchObject({ ok: true });
    expect(readFileSync(path.join(dir, "ws", "shared.txt"), "utf8")).toBe("ALICE beta\n");

    // Tasks: bob cannot see or kill alice's background command.
    const bg = await run(client, "alice", "run_terminal_cmd", { command: "sleep 30", description: "wait", is_background: true });
    expect(bg.ok).toBe(true);
    const taskId = /<task-id>([^<]+)<\/task-id>/.exec(bg.ok ? bg.text : "")?.[1];
    expect(taskId).toBeDefined();
    const bobKill = await run(client, "bob", "kill_task", { task_id: taskId });
    expect(JSON.stringify(bobKill)).not.toMatch(/"outcome":"killed"/);
    const aliceKill = await run(client, "alice", "kill_task", { task_id: taskId });
    expect(aliceKill.ok).toBe(true);

    // Working directory: a call's working_directory is that call's; the other session still starts in the workspace.
    // (A folder inside the workspace: one outside the roots is refused, issue #19.)
    mkdirSync(path.join(server.session.workspace, "sub"), { recursive: true });
    const [inSub, plain] = await Promise.all([
      run(client, "alice", "run_terminal_cmd", { command: "pwd", description: "cwd" }, { workingDirectory: "sub" }),
      run(client, "bob", "run_terminal_cmd", { command: "pwd", description: "cwd" }),
    ]);
    expect(inSub.ok && String(inSub.output.output).trim()).toBe(path.join(server.session.workspace, "sub"));
    expect(plain.ok && String(plain.output.output).trim()).toBe(server.session.workspace);

    // State files: one folder per session id.
    const aliceFile = path.join(server.sessions.peek("alice")!.sessionDir, "resources_state.json");
    const bobFile = path.join(server.sessions.peek("bob")!.sessionDir, "resources_state.json");
    expect(aliceFile).not.toBe(bobFile);
    expect(readFileSync(aliceFile, "utf8")).not.toContain("bob ");
    expect(readFileSync(bobFile, "utf8")).not.toContain("alice ");
    // The default session is untouched by both.
    expect(server.session.finalized).toBe(false);
  });

  it("without the header, one default session as before; header ids that need cleaning get distinct folders", async () => {
    const { server, client } = await start({}, newDir());
    expect((await finalize(client, undefined)).success).toBe(true);
    expect(server.session.finalized).toBe(true);
    expect(server.sessions.size).toBe(0);
    await finalize(client, "a/b");
    await finalize(client, "a_b");
    const dirs = [server.sessions.peek("a/b")!.sessionDir, server.sessions.peek("a_b")!.sessionDir];
    expect(new Set(dirs).size).toBe(2);
    for (const d of dirs) expect(path.dirname(d)).toBe(path.dirname(server.session.sessionDir));
  });

  it("refuses a finalize whose session_id differs from the header with INVALID_ARGUMENT", async () => {
    const { client } = await start({}, newDir());
    await expect(finalize(client, "alice", { sessionId: "bob" })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    expect((await finalize(client, "alice", { sessionId: "alice" })).success).toBe(true);
  });

  it("routes the deprecated RPCs by session too", async () => {
    const { client } = await start({}, newDir());
    await unary(client, "setSystemReminders", { enabled: true }, md("alice"));
    const alice = await unary<{ enabled: boolean }>(client, "getSystemReminders", {}, md("alice"));
    const bob = await unary<{ enabled: boolean }>(client, "getSystemReminders", {}, md("bob"));
    expect([alice.enabled, bob.enabled]).toEqual([true, false]);
  });
});

describe("idle eviction", () => {
  it("flushes state and kills tasks on eviction; the next call warm-starts with the toolset, todo list and read records", async () => {
    const dir = newDir();
    const { server, client } = await start({ sessionIdleTimeoutMs: 200 }, dir);
    await finalize(client, "carol");
    await run(client, "carol", "todo_write", { merge: false, todos: [{ id: "1", content: "survive eviction", status: "in_progress" }] });
    // Read before eviction: the read record is what lets search_replace edit the file after it.
    expect((await run(client, "carol", "read_file", { target_file: "shared.txt" })).ok).toBe(true);
    // A sleep with an argument no other process has, so that /proc shows whether it still runs.
    const token = `${process.pid % 1000}.${Date.now() % 100000}`;
    const bg = await run(client, "carol", "run_terminal_cmd", { command: `sleep ${token}`, description: "long", is_background: true });
    expect(bg.ok).toBe(true);
    const first = server.sessions.peek("carol")!;
    await waitFor(() => running(token));
    // The idle timer fires 200 ms after the last call ends.
    await waitFor(() => server.sessions.peek("carol") === undefined && server.sessions.size === 0);
    expect(server.sessions.evictions).toBe(1);
    // Its background command was killed with it.
    await waitFor(() => !running(token));
    // What eviction left on disk is complete: the todo list and the read record of the file.
    const saved = JSON.parse(readFileSync(path.join(first.sessionDir, "resources_state.json"), "utf8")) as unknown;
    expect(JSON.stringify(saved)).toContain("survive eviction");
    expect(JSON.stringify(saved)).toContain(JSON.stringify(realpathSync(path.join(dir, "ws", "shared.txt"))));

    // Warm start: no new finalize and no new read; the toolset, the todo list and the read records are back.
    const edit = await run(client, "carol", "search_replace", { file_path: "shared.txt", old_string: "alpha", new_string: "CAROL" });
    expect(edit).toMatchObject({ ok: true });
    expect(readFileSync(path.join(dir, "ws", "shared.txt"), "utf8")).toBe("CAROL beta\n");
    expect(server.sessions.peek("carol")).not.toBe(first);
    const again = await run(client, "carol", "todo_write", { merge: true, todos: [{ id: "2", content: "after", status: "pending" }] });
    expect(again.ok).toBe(true);
    const restored = await state(client, "carol");
    expect(todos(restored)).toContain("survive eviction");
    expect(todos(restored)).toContain("after");
    // A session that never read the file is refused (FILE_NOT_READ): the edit above was the restored record's doing.
    await finalize(client, "dan");
    const unread = await run(client, "dan", "search_replace", { file_path: "shared.txt", old_string: "beta", new_string: "X" });
    expect(unread).toMatchObject({ ok: false, error: { code: 201 } });
  }, 30_000);

  it("warm-starts a routed session after a server restart with the same state dir", async () => {
    const dir = newDir();
    const first = await start({}, dir);
    await finalize(first.client, "dave");
    await run(first.client, "dave", "todo_write", { merge: false, todos: [{ id: "1", content: "restart me", status: "pending" }] });
    first.client.close();
    await first.server.shutdown(1000);
    opened.splice(opened.indexOf(first), 1);
    const second = await start({}, dir);
    expect(todos(await state(second.client, "dave"))).toContain("restart me");
    expect((await run(second.client, "dave", "todo_write", { merge: true, todos: [{ id: "2", content: "x", status: "pending" }] })).ok).toBe(true);
  });
});

describe("--state-lock session", () => {
  it("lets two servers share a workspace and state dir; a session lives in one at a time and moves over", async () => {
    const dir = newDir();
    const a = await start({ stateLock: "session" }, dir);
    const b = await start({ stateLock: "session" }, dir);
    await finalize(a.client, "erin");
    await run(a.client, "erin", "todo_write", { merge: false, todos: [{ id: "1", content: "held by a", status: "pending" }] });
    const refused = await state(b.client, "erin").catch((e: ServiceError) => e);
    expect(refused).toMatchObject({ code: status.UNAVAILABLE });
    expect((refused as ServiceError).details).toMatch(/held by another server/);
    // Other sessions are served by either server.
    expect((await finalize(b.client, "frank")).success).toBe(true);
    // Once a lets it go (eviction here; a dead server's lock is taken over), b warm-starts it.
    expect(await a.server.sessions.evictIdle()).toBe(1);
    expect(todos(await state(b.client, "erin"))).toContain("held by a");
  });
});

describe("--state-lock session, a session held elsewhere", () => {
  it("refuses it without keeping a Session: the sessions gauge stays as it was", async () => {
    const dir = newDir();
    const a = await start({ stateLock: "session" }, dir);
    const held: { server?: ToolsServer } = {};
    const metrics = createPrometheusMetrics({ runningTasks: () => held.server?.runningTasks() ?? 0, processMetrics: false });
    const started = await start({ stateLock: "session", metrics }, dir);
    held.server = started.server;
    const endpoint = await serveMetrics("127.0.0.1:0", metrics.registry, log);
    endpoints.push(endpoint);
    const gauge = async () => scrape(`http://${endpoint.address}/metrics`, "grok_tools_sessions");

    await finalize(a.client, "erin");
    expect((await finalize(started.client, "frank")).success).toBe(true);
    // The default session and frank.
    expect(await gauge()).toBe(2);
    for (let i = 0; i < 5; i++) {
      const refused = await state(started.client, "erin").catch((e: ServiceError) => e);
      expect(refused).toMatchObject({ code: status.UNAVAILABLE });
      expect((refused as ServiceError).details).toMatch(/held by another server/);
    }
    expect(await gauge()).toBe(2);
    expect(started.server.sessions.size).toBe(1);
    expect(started.server.sessions.peek("erin")).toBeUndefined();
    // Once a lets go of it, b takes it, and the gauge counts it once.
    expect(await a.server.sessions.evictIdle()).toBe(1);
    expect(await state(started.client, "erin")).toBeDefined();
    expect(await gauge()).toBe(3);
    expect(await started.server.sessions.evictIdle()).toBe(2);
    expect(await gauge()).toBe(1);
  });
});

describe("session limits", () => {
  it("refuses a session past --max-sessions with RESOURCE_EXHAUSTED and keeps serving the others", async () => {
    const { client } = await start({ maxSessions: 2 }, newDir());
    await finalize(client, "s1");
    await finalize(client, "s2");
    const refused = await finalize(client, "s3").catch((e: ServiceError) => e);
    expect(refused).toMatchObject({ code: status.RESOURCE_EXHAUSTED });
    expect((refused as ServiceError).details).toMatch(/maximum of 2 sessions/);
    expect(await state(client, "s1")).toBeDefined();
    expect(await state(client, undefined)).toBeDefined();
  });

  it("refuses calls past --max-calls-per-session with RESOURCE_EXHAUSTED, other sessions unaffected", async () => {
    const dir = newDir();
    const { client } = await start({ maxCallsPerSession: 2 }, dir);
    await finalize(client, "busy");
    await finalize(client, "calm");
    const gate = path.join(dir, "ws", "gate");
    const slow = [1, 2].map((i) =>
      run(client, "busy", "run_terminal_cmd", { command: `touch started-${i}; while [ ! -e ${gate} ]; do sleep 0.05; done`, description: "slow" }),
    );
    await waitFor(() => existsSync(path.join(dir, "ws", "started-1")) && existsSync(path.join(dir, "ws", "started-2")));
    const third = await run(client, "busy", "run_terminal_cmd", { command: "true", description: "x" }).catch((e: ServiceError) => e);
    expect(third).toMatchObject({ code: status.RESOURCE_EXHAUSTED });
    expect((await run(client, "calm", "run_terminal_cmd", { command: "true", description: "x" })).ok).toBe(true);
    writeFileSync(gate, "");
    for (const r of await Promise.all(slow)) expect(r.ok).toBe(true);
    expect((await run(client, "busy", "run_terminal_cmd", { command: "true", description: "x" })).ok).toBe(true);
  });

  it("refuses an over-long session header with INVALID_ARGUMENT", async () => {
    const { client } = await start({}, newDir());
    await expect(state(client, "x".repeat(300))).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(await state(client, "x".repeat(256))).toBeDefined();
  });

  it("refuses a request larger than --max-message-bytes without crashing", async () => {
    const { client } = await start({ maxMessageBytes: 64 * 1024 }, newDir());
    await finalize(client, "big");
    const answer = await run(client, "big", "todo_write", { merge: false, todos: [{ id: "1", content: "x".repeat(100 * 1024), status: "pending" }] }).catch(
      (e: ServiceError) => e,
    );
    expect(answer).toMatchObject({ code: status.RESOURCE_EXHAUSTED });
    expect(await state(client, "big")).toBeDefined();
  });
});

/** The value of the unlabelled sample `name` in a scrape of `url`. */
function scrape(url: string, name: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => {
        const line = text.split("\n").find((l) => l.startsWith(`${name} `));
        resolve(line === undefined ? undefined : Number(line.slice(name.length + 1)));
      });
    }).on("error", reject);
  });
}

/** Whether a process whose command line has `token` as an argument runs (zombies excluded). */
function running(token: string): boolean {
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (args.includes(token) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"))) return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
