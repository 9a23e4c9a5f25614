// Subagents end to end (issue #15): grok-tools-server and grok-tools-callback-host as real
// processes; the host's command runner runs examples/subagent-child, a scripted agent loop that
// starts its own tools server (or, with GROK_TOOLS_CHILD_ADDRESS, connects back to the spawning
// server as its own session), finalizes the tool names it was given and calls read/grep/edit.
// Covers a foreground child, a background child waited with wait_tasks, a child cancelled with
// kill_task (the host sees the cancellation), a resumed child, a wrong secret, an unreachable
// host, and the order of the notifications the host receives.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { credentials, Metadata, status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";
import { GrokToolsCallbackServiceClient } from "@grok-tools/proto";
import { spawnServer, type SpawnedServer } from "@grok-tools/client";

const REPO = path.resolve(import.meta.dirname, "../..");
const HOST_CLI = path.join(REPO, "packages/callback-host/dist/cli.js");
const CHILD = path.join(REPO, "examples/subagent-child/child.mjs");
const SECRET = "e2e-callback-secret";

type HostEvent = { event: string; [key: string]: unknown };

class HostProcess {
  readonly events: HostEvent[] = [];
  readonly #waiters: Array<() => void> = [];
  readonly process: ChildProcess;
  stderr = "";

  constructor(args: string[], env: NodeJS.ProcessEnv = {}) {
    this.process = spawn(process.execPath, [HOST_CLI, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    createInterface({ input: this.process.stdout! }).on("line", (line) => {
      this.events.push(JSON.parse(line) as HostEvent);
      for (const w of this.#waiters.splice(0)) w();
    });
    this.process.stderr!.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
  }

  async waitFor(predicate: (e: HostEvent) => boolean, what: string, timeoutMs = 90_000): Promise<HostEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(predicate);
      if (found) return found;
      if (Date.now() > deadline || this.process.exitCode !== null) throw new Error(`host: no ${what} (stderr: ${this.stderr})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    if (this.process.exitCode !== null) return;
    const exited = new Promise((resolve) => this.process.once("exit", resolve));
    this.process.kill("SIGTERM");
    await exited;
  }
}

const TOOLS = [
  "GrokBuild:read_file",
  "GrokBuild:search_replace",
  "GrokBuild:list_dir",
  "GrokBuild:grep",
  "GrokBuild:run_terminal_cmd",
  "GrokBuild:get_task_output",
  "GrokBuild:kill_task",
  "GrokBuild:wait_tasks",
  "GrokBuild:task",
].map((id) => ({ id }));

let root: string;
let host: HostProcess;
const otherHosts: HostProcess[] = [];
let server: SpawnedServer;
const servers: SpawnedServer[] = [];

async function startServer(name: string): Promise<SpawnedServer> {
  const workspace = path.join(root, name);
  await mkdir(workspace, { recursive: true });
  const started = await spawnServer({ workspace, stateDir: path.join(root, `${name}-state`) });
  servers.push(started);
  return started;
}

function plan(steps: unknown[]): string {
  return `Follow the plan.\nPLAN:${JSON.stringify(steps)}`;
}

function subagentId(prompt: string): string {
  return /subagent_id: (\S+)/.exec(prompt)![1]!;
}

async function call(tool: string, input: unknown, target: SpawnedServer = server): Promise<string> {
  const result = await target.client.executeTool(tool, input);
  if (!result.ok) throw new Error(`${tool}: ${result.error.message}`);
  return result.promptText;
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "gt-subagents-")));
  host = new HostProcess(["--secret", SECRET, "--runner-command", `"${process.execPath}" "${CHILD}"`]);
  const listening = await host.waitFor((e) => e.event === "listening", "listening line");
  expect(listening.address).toMatch(/^127\.0\.0\.1:\d+$/);
  server = await startServer("ws");
  await writeFile(path.join(root, "ws", "README.md"), "# Demo\nTODO: write the docs\n");
  const finalized = await server.client.finalize({
    tools: TOOLS,
    clientCallbackAddr: String(listening.address),
    clientCallbackSecret: SECRET,
    sessionId: "parent-s",
  });
  expect(finalized.success).toBe(true);
  expect(finalized.callbackStatus).toEqual({ connected: true, activeSurfaces: ["notifications", "subagents"] });
});

afterAll(async () => {
  for (const s of servers) await s.close();
  await host?.stop();
  for (const h of otherHosts) await h.stop();
  await rm(root, { recursive: true, force: true });
});

describe("subagents through a real callback host", () => {
  let exploreId = "";

  it("runs a foreground child that reads, greps and edits through its own tools server", async () => {
    const prompt = await call("task", {
      description: "Fix the README",
      run_in_background: false,
      prompt: plan([
        { tool: "read_file", input: { target_file: "README.md" } },
        { tool: "grep", input: { pattern: "TODO", path: "." } },
        { tool: "search_replace", input: { file_path: "README.md", old_string: "TODO: write the docs", new_string: "DONE: docs written" } },
      ]),
    });
    expect(prompt).toMatch(/^read_file: ok: .*\ngrep: ok: .*\nsearch_replace: ok: .*\n\n<subagent_result>\nsubagent_id: \S+\nsubagent_type: general-purpose\n/);
    expect(await readFile(path.join(root, "ws", "README.md"), "utf8")).toBe("# Demo\nDONE: docs written\n");
    const spawned = host.events.find((e) => e.event === "spawn")!;
    expect(spawned.tool_names).toEqual(["read_file", "search_replace", "list_dir", "grep", "run_terminal_cmd", "get_task_output", "kill_task", "wait_tasks"]);
  });

  it("runs a background child and waits for it with wait_tasks", async () => {
    const started = await call("task", {
      description: "Explore the docs",
      subagent_type: "explore",
      prompt: plan([
        { tool: "list_dir", input: { target_directory: "." } },
        { tool: "grep", input: { pattern: "DONE", path: "." } },
      ]),
    });
    exploreId = subagentId(started);
    expect(started.startsWith("Subagent started in background.")).toBe(true);
    const waited = await call("wait_tasks", { task_ids: [exploreId], mode: "wait_all", timeout_ms: 90_000 });
    expect(waited).toContain(`--- Task ${exploreId} [completed] ---\nCommand: [subagent:explore] Explore the docs`);
    expect(waited).toContain("list_dir: ok");
    expect(waited).toContain("grep: ok");
    expect(waited).toContain("1/1 tasks completed (wait_all)");
    const spawned = host.events.find((e) => e.event === "spawn" && e.id === exploreId)!;
    expect(spawned.tool_names).toEqual(["read_file", "list_dir", "grep"]);
  });

  it("cancels a running child with kill_task; the host sees the cancellation", async () => {
    const id = subagentId(await call("task", { description: "Sleep a while", prompt: plan([{ sleep_ms: 600_000 }]) }));
    await host.waitFor((e) => e.event === "spawn" && e.id === id, "spawn of the long child");
    expect(await call("kill_task", { task_id: id })).toBe("killed: Subagent cancellation initiated");
    await host.waitFor((e) => e.event === "cancelled" && e.id === id, "cancellation at the host");
    const output = await call("get_task_output", { task_ids: [id], timeout_ms: 30_000 });
    expect(output).toContain("Status: cancelled");
    expect(await call("kill_task", { task_id: id })).toBe("already_exited: Subagent already cancelled");
  });

  it("resumes a completed child: the host replays its transcript", async () => {
    const prompt = await call("task", {
      description: "Explore again",
      subagent_type: "explore",
      resume_from: exploreId,
      run_in_background: false,
      prompt: plan([{ tool: "read_file", input: { target_file: "README.md" } }]),
    });
    expect(prompt).toMatch(/^resumed after 2 earlier turns\nread_file: ok: /);
    const spawned = host.events.find((e) => e.event === "spawn" && e.resume_from === exploreId);
    expect(spawned).toBeDefined();
  });

  it("delivered the notifications in order, with consecutive sequence numbers", async () => {
    // Delivery is asynchronous: wait for the last child's notification.
    await host.waitFor(
      (e) => e.event === "notification" && (e.notification as { description?: string }).description === "Explore again",
      "the last child's notification",
    );
    const notes = host.events.filter((e) => e.event === "notification");
    expect(notes.every((n) => n.session_id === "parent-s")).toBe(true);
    expect(notes.map((n) => n.sequence)).toEqual(notes.map((_n, i) => i));
    const completions = notes.map((n) => n.notification as { type: string; subagent_type: string; status: string; description: string });
    expect(completions.filter((n) => n.type === "SubagentCompleted").map((n) => [n.description, n.status])).toEqual([
      ["Fix the README", "completed"],
      ["Explore the docs", "completed"],
      ["Sleep a while", "cancelled"],
      ["Explore again", "completed"],
    ]);
  });

  it("a child that connects back to the spawning server runs there as its own session (its id), in its cwd", async () => {
    const back = await startServer("ws-back");
    await mkdir(path.join(root, "ws-back", "sub"));
    await writeFile(path.join(root, "ws-back", "sub", "notes.txt"), "one\n");
    const backHost = new HostProcess(["--secret", SECRET, "--runner-command", `"${process.execPath}" "${CHILD}"`], { GROK_TOOLS_CHILD_ADDRESS: back.address });
    otherHosts.push(backHost);
    const listening = await backHost.waitFor((e) => e.event === "listening", "listening line of the second host");
    const finalized = await back.client.finalize({
      tools: TOOLS,
      clientCallbackAddr: String(listening.address),
      clientCallbackSecret: SECRET,
      sessionId: "back-s",
    });
    expect(finalized.callbackStatus).toEqual({ connected: true, activeSurfaces: ["notifications", "subagents"] });
    const prompt = await call(
      "task",
      {
        description: "Append a line",
        run_in_background: false,
        cwd: "sub",
        prompt: plan([
          { tool: "run_terminal_cmd", input: { command: "echo two >> notes.txt", description: "Append a line" } },
          { tool: "read_file", input: { target_file: "notes.txt" } },
        ]),
      },
      back,
    );
    expect(prompt).toMatch(/^run_terminal_cmd: ok: .*\nread_file: ok: /);
    expect(await readFile(path.join(root, "ws-back", "sub", "notes.txt"), "utf8")).toBe("one\ntwo\n");
    // The child's calls ran in the spawning server, in the routed session named by the child id.
    const id = subagentId(prompt);
    const [workspaceState] = await readdir(path.join(root, "ws-back-state"));
    expect(await readdir(path.join(root, "ws-back-state", workspaceState!))).toContain(id);
  });

  it("refuses a wrong secret: UNAUTHENTICATED at the host, a failed child at the server", async () => {
    const raw = new GrokToolsCallbackServiceClient(String(host.events[0]!.address), credentials.createInsecure());
    const metadata = new Metadata();
    metadata.set("authorization", "Bearer not-the-secret");
    const error = await new Promise<ServiceError>((resolve) =>
      raw.sendNotification({ sessionId: "x", notificationJson: '{"type":"PlanModeEntered","tool_call_id":"c"}', sequence: 0 }, metadata, (e) => resolve(e!)),
    );
    raw.close();
    expect(error.code).toBe(GrpcStatus.UNAUTHENTICATED);

    const other = await startServer("ws-wrong-secret");
    const finalized = await other.client.finalize({
      tools: TOOLS,
      clientCallbackAddr: String(host.events[0]!.address),
      clientCallbackSecret: "not-the-secret",
    });
    expect(finalized.callbackStatus?.connected).toBe(true);
    const result = await other.client.executeTool("task", { description: "d", prompt: "p", run_in_background: false });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toContain("missing or wrong authorization");
  });

  it("reports an unreachable host in callback_status and still finalizes", async () => {
    const other = await startServer("ws-unreachable");
    const finalized = await other.client.finalize({ tools: TOOLS, clientCallbackAddr: "127.0.0.1:1", clientCallbackSecret: SECRET });
    expect(finalized.success).toBe(true);
    expect(finalized.callbackStatus).toMatchObject({ connected: false, activeSurfaces: [] });
    const result = await other.client.executeTool("task", { description: "d", prompt: "p" });
    expect(!result.ok && result.error.message).toBe("SubagentBackendResource (subagent support not initialized)");
  });
});
