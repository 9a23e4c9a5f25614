// GrokBuild:task through a session with a scripted subagent host: background and foreground
// children, the foreground budget, the task-output/kill/wait tools on children, resume_from,
// types (built-in and from agent files), capability modes, limits, depth and the exact texts.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { subagentHostService, type SubagentHost, type ToolNotification } from "@grok-tools/runtime";
import { errorCodeName, type SubagentRunResult, type SubagentSpawnRequest } from "@grok-tools/runtime/helpers";
import { grokBuild } from "../namespace.js";

let tmp: string;
let notes: ToolNotification[];
const sessions: Session[] = [];

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "task-tool-"));
  await mkdir(path.join(tmp, "ws"));
  notes = [];
});
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  await rm(tmp, { recursive: true, force: true });
});

/** A host whose children finish when the test says so. */
class ScriptedHost implements SubagentHost {
  readonly requests: SubagentSpawnRequest[] = [];
  readonly aborted: string[] = [];
  readonly #pending = new Map<string, (r: Partial<SubagentRunResult>) => void>();
  #arrived: Array<() => void> = [];
  auto: ((req: SubagentSpawnRequest) => Partial<SubagentRunResult>) | undefined;

  spawn(request: SubagentSpawnRequest, signal: AbortSignal): Promise<SubagentRunResult> {
    this.requests.push(request);
    for (const f of this.#arrived.splice(0)) f();
    return new Promise((resolve) => {
      const finish = (r: Partial<SubagentRunResult>) =>
        resolve({ success: true, output: "", cancelled: false, toolCalls: 0, turns: 0, durationMs: 0, tokensUsed: 0, ...r });
      signal.addEventListener("abort", () => {
        this.aborted.push(request.id);
        finish({ success: false, cancelled: true });
      });
      if (this.auto) finish(this.auto(request));
      else this.#pending.set(request.id, finish);
    });
  }

  finish(id: string, result: Partial<SubagentRunResult>): void {
    this.#pending.get(id)!(result);
  }

  async arrived(count: number): Promise<void> {
    while (this.requests.length < count) await new Promise<void>((resolve) => this.#arrived.push(resolve));
  }
}

const LIFECYCLE = [{ id: "GrokBuild:get_task_output" }, { id: "GrokBuild:kill_task" }, { id: "GrokBuild:wait_tasks" }];

async function session(taskParams: Record<string, unknown> = {}, extra: { id: string; paramsJson?: string }[] = [], host?: SubagentHost): Promise<Session> {
  const s = new Session({
    registry: ToolRegistry.of([grokBuild]),
    workspace: path.join(tmp, "ws"),
    stateDir: path.join(tmp, "state"),
    onNotification: (_id, n) => notes.push(n),
  });
  sessions.push(s);
  const result = await s.finalize({
    tools: [
      { id: "GrokBuild:read_file" },
      { id: "GrokBuild:search_replace" },
      { id: "GrokBuild:list_dir" },
      { id: "GrokBuild:grep" },
      { id: "GrokBuild:run_terminal_cmd" },
      ...LIFECYCLE,
      { id: "GrokBuild:task", paramsJson: JSON.stringify(taskParams) },
      ...extra,
    ],
  });
  expect(result).toMatchObject({ ok: true });
  if (host) s.service(subagentHostService).connect(host, "parent-1");
  return s;
}

async function call(s: Session, toolName: string, input: unknown, signal?: AbortSignal) {
  const outcome = await s.execute({ toolName, inputJson: JSON.stringify(input), ...(signal ? { signal } : {}) });
  return outcome;
}

async function ok(s: Session, toolName: string, input: unknown): Promise<{ prompt: string; output: Record<string, unknown> }> {
  const outcome = await call(s, toolName, input);
  if (!outcome.ok) throw new Error(`${toolName} failed: ${outcome.error.message}`);
  return { prompt: outcome.promptText, output: JSON.parse(outcome.outputJson) as Record<string, unknown> };
}

async function fails(s: Session, toolName: string, input: unknown): Promise<{ code: string; message: string }> {
  const outcome = await call(s, toolName, input);
  if (outcome.ok) throw new Error(`${toolName} succeeded: ${outcome.promptText}`);
  return { code: errorCodeName(outcome.error.code) ?? String(outcome.error.code), message: outcome.error.message };
}

function idOf(prompt: string): string {
  return /subagent_id: (\S+)/.exec(prompt)![1]!;
}

const footer = (id: string, type: string) =>
  `<subagent_result>\nsubagent_id: ${id}\nsubagent_type: ${type}\nTo continue this subagent's conversation, use resume_from="${id}".\n</subagent_result>`;

describe("GrokBuild:task", () => {
  it("says subagent support is not initialized without a host", async () => {
    const s = await session();
    await expect(fails(s, "task", { prompt: "p", description: "d" })).resolves.toEqual({
      code: "EXECUTION_FAILED",
      message: "SubagentBackendResource (subagent support not initialized)",
    });
  });

  it("starts in the background by default; get_task_output shows it running, then completed with meta and footer", async () => {
    const host = new ScriptedHost();
    const s = await session({}, [], host);
    const started = await ok(s, "task", { prompt: "find the bug", description: "Find the bug" });
    const id = idOf(started.prompt);
    expect(started.prompt).toBe(
      `Subagent started in background.\nsubagent_id: ${id}\ntype: general-purpose\ndescription: Find the bug\n\nUse get_task_output with task_ids=["${id}"] and timeout_ms to wait for results.`,
    );
    expect(started.output).toEqual({ type: "Text", text: started.prompt });
    await host.arrived(1);
    const req = host.requests[0]!;
    expect(req).toMatchObject({
      id,
      prompt: "find the bug",
      description: "Find the bug",
      subagentType: "general-purpose",
      parentSessionId: "parent-1",
      cwd: path.join(tmp, "ws"),
    });
    expect(req.toolNames).toEqual(["read_file", "search_replace", "list_dir", "grep", "run_terminal_cmd", "get_task_output", "kill_task", "wait_tasks"]);
    expect(req.systemPrompt).toContain(
      "Tools you can use: read_file, search_replace, list_dir, grep, run_terminal_cmd, get_task_output, kill_task, wait_tasks",
    );

    const running = await ok(s, "get_task_output", { task_ids: [id] });
    expect(running.prompt).toMatch(
      new RegExp(
        `^=== Task ${id} ===\\nCommand: \\[subagent:general-purpose\\] Find the bug\\nStatus: running\\nDuration: \\d+\\.\\d\\ds\\n\\n=== Output ===\\nSubagent is still running\\.\\nType: general-purpose\\nDescription: Find the bug\\nElapsed: \\d+\\.\\ds\\n\\nUse timeout_ms to wait for completion\\. You will be notified automatically when the task completes\\.$`,
      ),
    );
    host.finish(id, { output: "Found it in a.ts", toolCalls: 3, turns: 2, durationMs: 1234 });
    const done = await ok(s, "get_task_output", { task_ids: [id], timeout_ms: 10_000 });
    expect(done.prompt).toContain(`Status: completed\nDuration: `);
    expect(done.prompt).toContain(
      `Exit Code: 0\n\n=== Output ===\nFound it in a.ts\n\n<subagent_meta>id=${id}, type=general-purpose, tool_calls=3, turns=2, duration_ms=1234</subagent_meta>\n\n${footer(id, "general-purpose")}`,
    );
    expect(notes.filter((n) => n.type === "SubagentCompleted")).toEqual([
      {
        type: "SubagentCompleted",
        subagent_id: id,
        subagent_type: "general-purpose",
        description: "Find the bug",
        status: "completed",
        error: null,
        duration_ms: 1234,
        owner_session_id: "parent-1",
      },
    ]);
  });

  it("waits in the foreground and returns SubagentCompleted with the resume footer", async () => {
    const host = new ScriptedHost();
    host.auto = (req) => ({ output: `explored ${req.prompt}`, toolCalls: 1, turns: 1, durationMs: 5 });
    const s = await session({}, [], host);
    const result = await ok(s, "task", { prompt: "src", description: "Explore src", subagent_type: "explore", run_in_background: "false" });
    const id = host.requests[0]!.id;
    expect(result.output).toEqual({
      type: "SubagentCompleted",
      output: "explored src",
      subagent_id: id,
      subagent_type: "explore",
      tool_calls: 1,
      turns: 1,
      duration_ms: 5,
      worktree_path: null,
      resume_from_hint: id,
    });
    expect(result.prompt).toBe(`explored src\n\n${footer(id, "explore")}`);
    // explore is read-only: read, list and search tools only, and no lifecycle tools without a bash.
    expect(host.requests[0]!.toolNames).toEqual(["read_file", "list_dir", "grep"]);
  });

  it("moves a foreground child to the background when the budget elapses; it keeps running", async () => {
    const host = new ScriptedHost();
    const s = await session({ foreground_budget_ms: 50 }, [], host);
    const result = await ok(s, "task", { prompt: "slow", description: "Slow work", run_in_background: false });
    const id = host.requests[0]!.id;
    expect(result.prompt).toBe(
      `Subagent took longer than the foreground budget and was moved to the background to keep the conversation responsive. It is still running.\nsubagent_id: ${id}\ntype: general-purpose\ndescription: Slow work\n\nUse get_task_output with task_ids=["${id}"] and timeout_ms to wait for results.`,
    );
    host.finish(id, { output: "late" });
    const waited = await ok(s, "wait_tasks", { task_ids: [id], mode: "wait_all", timeout_ms: 10_000 });
    expect(waited.prompt).toContain(`--- Task ${id} [completed] ---\nCommand: [subagent:general-purpose] Slow work`);
    expect(waited.prompt.endsWith("1/1 tasks completed (wait_all)")).toBe(true);
  });

  it("a foreground child fails with the host's error", async () => {
    const host = new ScriptedHost();
    host.auto = () => ({ success: false, error: "model unavailable" });
    const s = await session({}, [], host);
    await expect(fails(s, "task", { prompt: "p", description: "d", run_in_background: false })).resolves.toEqual({
      code: "INVALID_INPUT",
      message: "model unavailable",
    });
    host.auto = () => ({ success: false });
    await expect(fails(s, "task", { prompt: "p", description: "d", run_in_background: false })).resolves.toEqual({
      code: "INVALID_INPUT",
      message: "Unknown subagent error",
    });
  });

  it("kill_task cancels a running child (the host sees the abort); a second kill says it is already cancelled", async () => {
    const host = new ScriptedHost();
    const s = await session({}, [], host);
    const id = idOf((await ok(s, "task", { prompt: "p", description: "Long job" })).prompt);
    await host.arrived(1);
    expect((await ok(s, "kill_task", { task_id: id })).prompt).toBe("killed: Subagent cancellation initiated");
    expect(host.aborted).toEqual([id]);
    const out = await ok(s, "get_task_output", { task_ids: [id], timeout_ms: 10_000 });
    expect(out.prompt).toContain("Status: cancelled");
    expect(out.prompt).toContain("=== Output ===\nSubagent was cancelled");
    expect((await ok(s, "kill_task", { task_id: id })).prompt).toBe("already_exited: Subagent already cancelled");
    expect(notes.find((n) => n.type === "SubagentCompleted")).toMatchObject({ status: "cancelled", error: "Subagent was cancelled" });
  });

  it("cancelling the parent call cancels a foreground child", async () => {
    const host = new ScriptedHost();
    const s = await session({}, [], host);
    const controller = new AbortController();
    const pending = call(s, "task", { prompt: "p", description: "d", run_in_background: false }, controller.signal);
    await host.arrived(1);
    controller.abort();
    const outcome = await pending;
    expect(outcome).toMatchObject({ ok: false, error: { code: 302 } });
    const until = Date.now() + 10_000;
    while (host.aborted.length === 0 && Date.now() < until) await new Promise((r) => setImmediate(r));
    expect(host.aborted).toEqual([host.requests[0]!.id]);
  });

  it("wait_tasks wait_any returns when the first of two children finishes", async () => {
    const host = new ScriptedHost();
    const s = await session({}, [], host);
    const a = idOf((await ok(s, "task", { prompt: "a", description: "A" })).prompt);
    const b = idOf((await ok(s, "task", { prompt: "b", description: "B" })).prompt);
    await host.arrived(2);
    const waiting = ok(s, "wait_tasks", { task_ids: [a, b], mode: "wait_any", timeout_ms: 10_000 });
    // Not a synchronisation: finished earlier, b is simply seen as done at the first look (same result).
    setTimeout(() => host.finish(b, { output: "b done" }), 100);
    const result = await waiting;
    expect(result.prompt).toContain(`--- Task ${a} [running] ---`);
    expect(result.prompt).toContain(`--- Task ${b} [completed] ---`);
    expect(result.prompt.endsWith("1/2 tasks completed (wait_any)")).toBe(true);
    host.finish(a, { output: "a done" });
  });

  it("validates resume_from: unknown, still running, other type; a valid one is forwarded", async () => {
    const host = new ScriptedHost();
    const s = await session({}, [], host);
    expect((await fails(s, "task", { prompt: "p", description: "d", resume_from: "nope" })).message).toBe(
      "Cannot resume from nope: no subagent with that id exists in this session.",
    );
    const id = idOf((await ok(s, "task", { prompt: "p", description: "d", subagent_type: "explore" })).prompt);
    await host.arrived(1);
    expect((await fails(s, "task", { prompt: "p", description: "d", subagent_type: "explore", resume_from: id })).message).toBe(
      `Cannot resume from ${id}: the subagent is running; only a completed subagent can be resumed.`,
    );
    host.finish(id, { output: "first" });
    await ok(s, "get_task_output", { task_ids: [id], timeout_ms: 10_000 });
    expect((await fails(s, "task", { prompt: "p", description: "d", resume_from: id })).message).toBe(
      `Cannot resume from ${id}: it is a explore subagent, not general-purpose.`,
    );
    // Sentinels are no resume at all.
    await ok(s, "task", { prompt: "p", description: "d", resume_from: "None" });
    await ok(s, "task", { prompt: "more", description: "d", subagent_type: "explore", resume_from: id });
    await host.arrived(3);
    expect(host.requests[1]!.resumeFrom).toBeUndefined();
    expect(host.requests[2]).toMatchObject({ resumeFrom: id, prompt: "more", subagentType: "explore" });
  });

  it("checks types: unknown, disabled, not allowed; user-defined types come from agent files", async () => {
    await mkdir(path.join(tmp, "ws", ".grok", "agents"), { recursive: true });
    await writeFile(
      path.join(tmp, "ws", ".grok", "agents", "reviewer.md"),
      "---\nname: reviewer\ndescription: Reviews diffs.\ntools: [read, search]\ncapability_mode: read-only\n---\nReview with ${{ tools.by_kind.search }}.\n",
    );
    const host = new ScriptedHost();
    const s = await session({ disabled_types: ["plan"] }, [], host);
    expect((await fails(s, "task", { prompt: "p", description: "d", subagent_type: "wizard" })).message).toBe(
      "Unknown subagent type: wizard. Available types: general-purpose, explore, plan, reviewer",
    );
    expect((await fails(s, "task", { prompt: "p", description: "d", subagent_type: "plan" })).message).toBe(
      "Subagent 'plan' is disabled via [subagents.toggle] in config.toml",
    );
    await ok(s, "task", { prompt: "p", description: "d", subagent_type: "reviewer" });
    await host.arrived(1);
    expect(host.requests[0]!.toolNames).toEqual(["read_file", "grep"]);
    expect(host.requests[0]!.systemPrompt.endsWith("Review with grep.")).toBe(true);

    const limited = await session({ allowed_types: ["explore"] }, [], host);
    expect((await fails(limited, "task", { prompt: "p", description: "d" })).message).toBe("agent can only spawn: explore; 'general-purpose' not allowed");
  });

  it("capability_mode filters the child's tools by kind (aliases accepted)", async () => {
    const host = new ScriptedHost();
    const s = await session({}, [], host);
    await ok(s, "task", { prompt: "p", description: "d", capability_mode: "ReadOnly" });
    await ok(s, "task", { prompt: "p", description: "d", capability_mode: "read_write" });
    await host.arrived(2);
    // read-only keeps read/list/search; the lifecycle tools go with the bash.
    expect(host.requests[0]!.toolNames).toEqual(["read_file", "list_dir", "grep"]);
    expect(host.requests[1]!.toolNames).toEqual(["read_file", "search_replace", "list_dir", "grep"]);
    expect((await fails(s, "task", { prompt: "p", description: "d", capability_mode: "root" })).code).toBe("INVALID_INPUT");
  });

  it("queues children over max_concurrent (initializing until room), or refuses them with limit_behavior fail", async () => {
    const host = new ScriptedHost();
    const s = await session({ max_concurrent: 1 }, [], host);
    const a = idOf((await ok(s, "task", { prompt: "a", description: "A" })).prompt);
    const b = idOf((await ok(s, "task", { prompt: "b", description: "B" })).prompt);
    await host.arrived(1);
    expect((await ok(s, "get_task_output", { task_ids: [b] })).prompt).toContain("Status: initializing");
    expect(host.requests).toHaveLength(1);
    host.finish(a, { output: "a" });
    await host.arrived(2);
    expect(host.requests[1]!.id).toBe(b);
    host.finish(b, { output: "b" });

    const strict = await session({ max_concurrent: 1, limit_behavior: "fail" }, [], host);
    await ok(strict, "task", { prompt: "c", description: "C" });
    await expect(fails(strict, "task", { prompt: "d", description: "D" })).resolves.toEqual({
      code: "RATE_LIMITED",
      message: "Subagent limit reached: 1 subagents are running in this session (max 1).",
    });
  });

  it("kill_task on a queued child: cancelled at once with its SubagentCompleted notification; the queue moves on to the next", async () => {
    const host = new ScriptedHost();
    const s = await session({ max_concurrent: 1 }, [], host);
    const a = idOf((await ok(s, "task", { prompt: "a", description: "A" })).prompt);
    const b = idOf((await ok(s, "task", { prompt: "b", description: "B" })).prompt);
    const c = idOf((await ok(s, "task", { prompt: "c", description: "C" })).prompt);
    await host.arrived(1);
    expect((await ok(s, "get_task_output", { task_ids: [b] })).prompt).toContain("Status: initializing");

    expect((await ok(s, "kill_task", { task_id: b })).prompt).toBe("killed: Subagent cancellation initiated");
    const killed = await ok(s, "get_task_output", { task_ids: [b], timeout_ms: 10_000 });
    expect(killed.prompt).toContain("Status: cancelled");
    expect(notes.filter((n) => n.type === "SubagentCompleted")).toEqual([
      {
        type: "SubagentCompleted",
        subagent_id: b,
        subagent_type: "general-purpose",
        description: "B",
        status: "cancelled",
        error: "Subagent was cancelled",
        duration_ms: expect.any(Number),
        owner_session_id: "parent-1",
      },
    ]);
    expect((await ok(s, "kill_task", { task_id: b })).prompt).toBe("already_exited: Subagent already cancelled");
    // The killed child never reached the host; when a finishes, c (not b) gets the slot.
    host.finish(a, { output: "a" });
    await host.arrived(2);
    expect(host.requests.map((r) => r.id)).toEqual([a, c]);
    expect(host.aborted).toEqual([]);
    host.finish(c, { output: "c" });
    await ok(s, "wait_tasks", { task_ids: [a, c], mode: "wait_all", timeout_ms: 10_000 });
    expect(notes.filter((n) => n.type === "SubagentCompleted").map((n) => [n.subagent_id, n.status])).toEqual([
      [b, "cancelled"],
      [a, "completed"],
      [c, "completed"],
    ]);
  });

  it("refuses at the depth limit and checks cwd", async () => {
    const host = new ScriptedHost();
    const s = await session({}, [], host);
    await writeFile(path.join(tmp, "ws", "file.txt"), "x");
    expect((await fails(s, "task", { prompt: "p", description: "d", cwd: "missing" })).message).toBe('cwd "missing" does not exist');
    expect((await fails(s, "task", { prompt: "p", description: "d", cwd: "`file.txt`" })).message).toBe('cwd "file.txt" exists but is not a directory');
    // Outside the roots: refused, the same for a folder that exists and one that does not (issue #19).
    await mkdir(path.join(tmp, "elsewhere"), { recursive: true });
    for (const cwd of [path.join(tmp, "elsewhere"), path.join(tmp, "nowhere"), "../elsewhere"]) {
      expect((await fails(s, "task", { prompt: "p", description: "d", cwd })).code).toBe("PERMISSION_DENIED");
    }
    expect(host.requests).toHaveLength(0);
    await mkdir(path.join(tmp, "ws", "sub"));
    await ok(s, "task", { prompt: "p", description: "d", cwd: '"sub"' });
    await host.arrived(1);
    expect(host.requests[0]!.cwd).toBe(path.join(tmp, "ws", "sub"));
    s.service(subagentHostService).depth = 1;
    expect((await fails(s, "task", { prompt: "p", description: "d" })).message).toBe(
      "Subagent depth limit exceeded (current depth: 1, max: 1). Cannot spawn further nested subagents.",
    );
  });

  it("requires a task-output and a kill tool at finalize", async () => {
    const s = new Session({ registry: ToolRegistry.of([grokBuild]), workspace: path.join(tmp, "ws"), stateDir: path.join(tmp, "state") });
    sessions.push(s);
    const result = await s.finalize({ tools: [{ id: "GrokBuild:get_task_output" }, { id: "GrokBuild:task" }] });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.violations.map((v) => [v.message, v.fieldPath, v.expected])).toContainEqual([
      "task requires GrokBuild:kill_task so spawned background subagents can be monitored and cancelled",
      "tools",
      "include get_task_output and kill_task",
    ]);
  });
});
