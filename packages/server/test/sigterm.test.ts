// SIGTERM while long commands run, in the default session and in a routed one (x-grok-session-id):
// the server stops taking calls, gives the running calls their --shutdown-grace, then cuts them,
// kills the commands, closes every session (state flushed) and exits 0 within the grace (what a
// Kubernetes pod stop or systemd does; terminationGracePeriodSeconds must exceed the grace).
// Every state change is on disk before its call answers, so what the stop must leave is a state
// folder that is complete and loadable: a server restarted on it sees each session's todo list and
// read records (an edit works without reading the file again), and the commands' logs are flushed.
import { afterEach, expect, it, jest } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { credentials, status, type Metadata, type ServiceError } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient, type ExecuteToolResponse } from "@grok-tools/proto";
import { cleanUp, SERVER_TEST_TIMEOUT_MS, startServer, tempDir } from "./run-server.js";
import { headers, statusOf, unary } from "./grpc-call.js";

// Starts two server processes, one after the other; on a loaded machine one start can take tens of seconds.
jest.setTimeout(2 * SERVER_TEST_TIMEOUT_MS);

afterEach(cleanUp);

const GRACE_MS = 3000;
/**
 * What the stop may take beyond the grace: cutting the calls, killing two commands (SIGTERM to
 * their process trees), the last state writes and the exit, on a machine busy with other tests.
 */
const STOP_SLACK_MS = 4000;
const TOOLS = [
  { id: "GrokBuild:todo_write" },
  { id: "GrokBuild:read_file" },
  { id: "GrokBuild:search_replace" },
  { id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":true,"auto_background_on_timeout":false}' },
  { id: "GrokBuild:get_task_output" },
  { id: "GrokBuild:kill_task" },
];
const ROUTED = "routed-sigterm";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

function processesWith(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function execute(client: GrokToolsServiceClient, md: Metadata, toolName: string, input: object) {
  const response = await unary<ExecuteToolResponse>(client, "executeTool", ExecuteToolRequest.fromPartial({ toolName, inputJson: JSON.stringify(input) }), md);
  return response.result?.$case === "success" ? { ok: true as const } : { ok: false as const, error: response.result?.value };
}

const finalize = (client: GrokToolsServiceClient, md: Metadata) =>
  unary<{ success: boolean; message: string }>(client, "finalizeToolConfigRequest", FinalizeToolServerConfigRequest.fromPartial({ tools: TOOLS }), md);

async function stateText(client: GrokToolsServiceClient, md: Metadata): Promise<string> {
  return (await unary<{ stateJson: string }>(client, "getToolState", {}, md)).stateJson;
}

it("exits 0 within its grace period with both sessions' commands (foreground and background) killed and their state complete on disk", async () => {
  const dir = tempDir("grok-sigterm-");
  const workspace = path.join(dir, "ws");
  const stateDir = path.join(dir, "state");
  mkdirSync(workspace);
  writeFileSync(path.join(workspace, "default.txt"), "default alpha\n");
  writeFileSync(path.join(workspace, "routed.txt"), "routed alpha\n");
  const args = ["--listen", "127.0.0.1:0", "--workspace", workspace, "--state-dir", stateDir, "--shutdown-grace", String(GRACE_MS)];
  const server = startServer(args);
  const client = new GrokToolsServiceClient(await server.listening, credentials.createInsecure());
  const sessions = [
    { name: "default", md: headers(), todo: "todo-default-4e2", file: "default.txt" },
    { name: ROUTED, md: headers(undefined, { "x-grok-session-id": ROUTED }), todo: "todo-routed-7c9", file: "routed.txt" },
  ];
  const marker = `sigterm-marker-${process.pid}-${Date.now()}`;
  const calls: Promise<number>[] = [];
  for (const s of sessions) {
    expect(await finalize(client, s.md)).toMatchObject({ success: true });
    expect(await execute(client, s.md, "todo_write", { merge: false, todos: [{ id: "t1", content: s.todo, status: "in_progress" }] })).toEqual({ ok: true });
    expect(await execute(client, s.md, "read_file", { target_file: s.file })).toEqual({ ok: true });
    // A background command: no call holds it, only the session's close at shutdown kills it.
    const background = await execute(client, s.md, "run_terminal_cmd", {
      command: `sleep 300 # ${marker}-bg-${s.name}`,
      description: "bg",
      is_background: true,
    });
    expect(background).toEqual({ ok: true });
    // A foreground one: prints a line (its log must be flushed by the stop), then outlives any grace.
    const command = `echo started-${s.name}-${marker}; sleep 300 # ${marker}-${s.name}`;
    calls.push(
      new Promise<number>((resolve) =>
        client.executeTool(
          ExecuteToolRequest.fromPartial({ toolName: "run_terminal_cmd", inputJson: JSON.stringify({ command, description: "wait" }) }),
          s.md,
          (error: ServiceError | null) => resolve(error ? error.code : status.OK),
        ),
      ),
    );
  }
  for (const s of sessions) {
    await waitFor(`the command of ${s.name} to run`, () => processesWith(`${marker}-${s.name}`).length > 0);
    await waitFor(`the background command of ${s.name} to run`, () => processesWith(`${marker}-bg-${s.name}`).length > 0);
  }
  // Both lines are out (in the logs or on their way) before the signal.
  await new Promise((r) => setTimeout(r, 200));

  const signalled = Date.now();
  server.child.kill("SIGTERM");
  // New calls are refused at once in every session while the running ones have their grace.
  for (const s of sessions) await waitFor(`new calls of ${s.name} refused`, async () => (await statusOf(client, "getToolState", {}, s.md)) !== status.OK);
  const exit = await server.exited;
  const elapsed = Date.now() - signalled;
  client.close();
  expect(exit).toEqual({ code: 0, signal: null });
  // It waited for the running calls (most of the grace), and stopped soon after it: the 300 s commands did not hold it.
  expect(elapsed).toBeGreaterThanOrEqual(GRACE_MS - 500);
  expect(elapsed).toBeLessThan(GRACE_MS + STOP_SLACK_MS);
  // The clients got an answer (cut), not a hang.
  for (const code of await Promise.all(calls)) expect([status.UNAVAILABLE, status.CANCELLED, status.INTERNAL, status.OK]).toContain(code);
  // The commands died with the server (no orphan keeps running).
  for (const s of sessions) {
    expect(processesWith(`${marker}-${s.name}`)).toEqual([]);
    expect(processesWith(`${marker}-bg-${s.name}`)).toEqual([]);
  }
  // A clean stop leaves no lock behind.
  const files = filesUnder(stateDir);
  expect(files.some((f) => path.basename(f) === "server.lock")).toBe(false);
  // Each session's state file and command log are in its own folder, complete and parseable.
  for (const s of sessions) {
    const other = sessions.find((o) => o !== s)!;
    const stateFile = files.find((f) => path.basename(f) === "resources_state.json" && readFileSync(f, "utf8").includes(s.todo));
    expect(stateFile).toBeDefined();
    const saved = readFileSync(stateFile!, "utf8");
    expect(() => JSON.parse(saved) as unknown).not.toThrow();
    expect(saved).toContain(JSON.stringify(path.join(realpathSync(workspace), s.file)));
    expect(saved).not.toContain(other.todo);
    const logs = files.filter((f) => f.startsWith(path.join(path.dirname(stateFile!), "terminal") + path.sep)).map((f) => readFileSync(f, "utf8"));
    expect(logs).toContain(`started-${s.name}-${marker}\n`);
  }

  // A server restarted on the same state dir takes both sessions up where they were.
  const restarted = startServer(args);
  const again = new GrokToolsServiceClient(await restarted.listening, credentials.createInsecure());
  // The default session is finalized by its host after a restart; the routed one warm-starts from its folder.
  expect((await finalize(again, sessions[0]!.md)).success).toBe(true);
  for (const s of sessions) {
    const text = await stateText(again, s.md);
    expect(text).toContain(s.todo);
    // The read record survived: the edit needs no new read.
    expect(await execute(again, s.md, "search_replace", { file_path: s.file, old_string: "alpha", new_string: "beta" })).toEqual({ ok: true });
    expect(readFileSync(path.join(workspace, s.file), "utf8")).toBe(`${s.name === "default" ? "default" : "routed"} beta\n`);
  }
  again.close();
});
