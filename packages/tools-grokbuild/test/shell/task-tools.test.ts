/**
 * Integration tests of the background path and the task tools: background start,
 * get_task_output (poll, wait, cap hints, multi ids, not found), wait_tasks (any/all),
 * kill_task / kill_terminal_command, auto-background, legacy texts, session close.
 */
import { jest } from "@jest/globals";
import { ErrorCode } from "@grok-tools/runtime";
import { eventually, processesWith, startHarness, type ShellHarness } from "./helpers.js";

jest.setTimeout(30_000);

let h: ShellHarness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

async function startBg(command: string, callId?: string): Promise<{ id: string; prompt: string; out: Record<string, unknown> }> {
  const r = await h.call("run_terminal_cmd", { command, description: "bg", is_background: true }, callId ? { callId } : {});
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  const out = JSON.parse(r.outputJson);
  return { id: out.task_id, prompt: r.promptText, out };
}

function text(r: Awaited<ReturnType<ShellHarness["call"]>>): string {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.promptText;
}

describe("background tasks", () => {
  it("starts a background task with a UUIDv7 id and the envelope prompt", async () => {
    const { id, prompt, out } = await startBg("echo bg-out; sleep 0.2");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const file = `${h.session.sessionDir}/terminal/call-1.log`;
    expect(prompt).toBe(
      `<task-id>${id}</task-id>\n<task-type>bash</task-type>\n<output-file>${file}</output-file>\n<status>running</status>\n<summary>Background task ${id} started</summary>\nUse get_task_output tool with task_ids=["${id}"] to retrieve the output.`,
    );
    expect(out).toMatchObject({ type: "BackgroundTaskStarted", status: "running", task_type: "bash", command: "echo bg-out; sleep 0.2" });
    const waited = text(await h.call("get_task_output", { task_ids: [id], timeout_ms: 10_000 }));
    expect(waited).toMatch(
      new RegExp(
        `^=== Task ${id} ===\\nCommand: echo bg-out; sleep 0.2\\nStatus: completed\\nDuration: \\d+\\.\\d\\ds\\nExit Code: 0\\nOutput File: ${file}\\n\\n=== Output ===\\nbg-out\\n$`,
      ),
    );
    expect(h.notifications.some((n) => n.type === "TaskCompleted" && n.task_id === id && n.exit_code === 0)).toBe(true);
    expect(h.notifications.some((n) => n.type === "BashExecutionBackgrounded" && n.task_id === id)).toBe(true);
  });

  it("polls a running task with the still-running hint, and waits with the cap texts", async () => {
    const { id } = await startBg("sleep 1000");
    const poll = text(await h.call("get_task_output", { task_id: id }));
    expect(poll).toContain("Status: running");
    expect(poll.endsWith("=== Output ===\n\n\nUse timeout_ms to wait for completion. You will be notified automatically when the task completes.")).toBe(true);
    const waited = text(await h.call("get_task_output", { task_ids: id, timeout_ms: "300" }));
    expect(waited.endsWith("Waited the requested 300ms; the task is still running. You will be notified automatically when the task completes.")).toBe(true);
    process.env.GROK_MAX_WAIT_BLOCK_MS = "200";
    try {
      const capped = text(await h.call("get_task_output", { task_ids: [id], timeout_ms: 5000 }));
      expect(
        capped.endsWith(
          "Waited 200ms, the per-call maximum, of the 5s you requested; the task is still running. You do not need to call this again. You will be notified automatically when the task completes.",
        ),
      ).toBe(true);
    } finally {
      delete process.env.GROK_MAX_WAIT_BLOCK_MS;
    }
    expect(text(await h.call("kill_task", { task_id: id }))).toBe("killed: Task was terminated successfully");
    expect(text(await h.call("kill_task", { task_id: id }))).toBe("already_exited: Task had already completed");
    const after = text(await h.call("get_task_output", { task_ids: [id] }));
    expect(after).toContain("Status: cancelled");
  });

  it("reports multi-id polls and waits, with not-found rows", async () => {
    const a = await startBg("echo A");
    const b = await startBg("sleep 0.3; exit 4");
    const multi = text(await h.call("get_task_output", { task_ids: [a.id, b.id, "nope", a.id], timeout_ms: 10_000 }));
    expect(multi).toBe(
      [
        "=== Multi-wait (wait_all) ===",
        `--- Task ${a.id} [completed] ---\nCommand: echo A\nDuration: ${multi.match(/Duration: (\d+\.\d\d)s/)![1]}s`,
        "Exit Code: 0",
        "A\n",
        `--- Task ${b.id} [failed] ---\nCommand: sleep 0.3; exit 4\nDuration: ${[...multi.matchAll(/Duration: (\d+\.\d\d)s/g)][1]![1]}s`,
        "Exit Code: 4",
        "--- Task nope [not_found] ---\nCommand: \nDuration: 0.00s",
        "Task nope not found.",
        "\n2/3 tasks completed (wait_all)",
      ].join("\n"),
    );
    const poll = text(await h.call("get_terminal_command_output", { task_ids: [a.id, "nope"] }));
    expect(poll.startsWith("=== Multi-wait (poll) ===")).toBe(true);
  });

  it("waits for any or all with wait_tasks", async () => {
    const fast = await startBg("sleep 0.2");
    const slow = await startBg("sleep 1000");
    const started = Date.now();
    const any = text(await h.call("wait_tasks", { task_ids: [fast.id, slow.id], mode: "wait_any", timeout_ms: 10_000 }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(any).toContain(`--- Task ${fast.id} [completed] ---`);
    expect(any).toContain("Wait returned early because another finished; this task is still running.");
    expect(any.endsWith("\n1/2 tasks completed (wait_any)")).toBe(true);
    const all = text(await h.call("wait_tasks", { task_ids: [fast.id, slow.id], mode: "wait_all", timeout_ms: 300 }));
    expect(all).toContain("Waited the requested 300ms; the task is still running.");
    expect(text(await h.call("kill_terminal_command", { task_id: slow.id }))).toBe("killed: Task was terminated successfully");
    const e = await h.call("wait_tasks", { task_ids: [], mode: "wait_all" });
    expect(!e.ok && e.error.message).toBe("task_ids must not be empty.");
  });

  it("answers unknown ids with the known ids, current and legacy", async () => {
    const none = await h.call("get_task_output", { task_ids: ["x1"] });
    expect(!none.ok && none.error).toMatchObject({
      code: ErrorCode.INVALID_INPUT,
      message: "Task x1 not found. No background tasks or subagents exist in this session.",
    });
    const k0 = await h.call("kill_task", { task_id: "x1" });
    expect(!k0.ok && k0.error.message).toBe("Task or subagent x1 not found. No background tasks or subagents exist in this session.");
    const { id } = await startBg("true");
    const some = await h.call("get_task_output", { task_ids: ["x1"] });
    expect(!some.ok && some.error.message).toBe(`Task x1 not found. Known task IDs: [${id}]`);
    const k1 = await h.call("kill_task", { task_id: "x1" });
    expect(!k1.ok && k1.error.message).toBe(`Task or subagent x1 not found. Known bash task IDs: [${id}]`);
    const empty = await h.call("get_task_output", { task_ids: [" ", ""] });
    expect(!empty.ok && empty.error.message).toBe("Provide a non-empty task_ids list.");
    const many = await h.call("get_task_output", { task_ids: Array.from({ length: 21 }, (_, i) => `t${i}`) });
    expect(!many.ok && many.error.message).toBe("task_ids exceeds maximum of 20 entries.");
    const legacy = await startHarness(undefined, { behaviorPreset: "legacy-0.4.10" });
    try {
      const l = await legacy.call("get_task_output", { task_ids: ["x1"] });
      expect(!l.ok && l.error.message).toBe("Task x1 not found");
      const lk = await legacy.call("kill_task", { task_id: "x1" });
      expect(!lk.ok && lk.error.message).toBe("Task x1 not found");
    } finally {
      await legacy.close();
    }
  });

  it("auto-backgrounds a foreground command under the call id", async () => {
    const auto = await startHarness([
      { id: "GrokBuild:run_terminal_cmd", paramsJson: '{"auto_background_on_timeout":true,"foreground_block_budget_ms":300}' },
      { id: "GrokBuild:get_task_output" },
      { id: "GrokBuild:kill_task" },
    ]);
    try {
      const r = await auto.call("run_terminal_cmd", { command: "echo early; sleep 1000", description: "d" }, { callId: "fg-call" });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      expect(r.promptText).toContain("<task-id>fg-call</task-id>");
      expect(r.promptText).toContain(
        '<summary>Command "echo early; sleep 1000" exceeded the default timeout and was automatically moved to background. Process is still running.</summary>',
      );
      const poll = await auto.call("get_task_output", { task_ids: ["fg-call"] });
      expect(poll.ok && poll.promptText).toContain("early");
      const k = await auto.call("kill_task", { task_id: "fg-call" });
      expect(k.ok && k.promptText).toBe("killed: Task was terminated successfully");
    } finally {
      await auto.close();
    }
  });

  it("kills a background task's whole tree and every task when the session closes", async () => {
    const marker = `bgtree${Date.now()}`;
    const { id } = await startBg(`(setsid bash -c 'sleep 1000; : ${marker}a' &); bash -c 'sleep 1000; : ${marker}b'`);
    expect(await eventually(async () => (await processesWith(marker)).length > 0)).toBe(true);
    text(await h.call("kill_task", { task_id: id }));
    expect(await processesWith(marker)).toEqual([]);
    const marker2 = `close${Date.now()}`;
    await startBg(`bash -c 'sleep 1000; : ${marker2}'`);
    expect(await eventually(async () => (await processesWith(marker2)).length > 0)).toBe(true);
    await h.session.close();
    expect(await processesWith(marker2)).toEqual([]);
  });

  it("runs in the background when the call's background option is set", async () => {
    const r = await h.call("run_terminal_cmd", { command: "echo opt", description: "d" }, { background: true });
    expect(r.ok && JSON.parse(r.outputJson).type).toBe("BackgroundTaskStarted");
  });

  it("times out a background task with a positive timeout (status timed_out)", async () => {
    const r = await h.call("run_terminal_cmd", { command: "sleep 1000", description: "d", is_background: true, timeout: 200 });
    if (!r.ok) throw new Error("start failed");
    const id = JSON.parse(r.outputJson).task_id;
    const done = text(await h.call("get_task_output", { task_ids: [id], timeout_ms: 10_000 }));
    expect(done).toContain("Status: timed_out");
  });
});

describe("signal deaths and odd ids through the task tools", () => {
  it("reports a command that kills itself as killed by that signal, and exit 137 as an exit", async () => {
    expect(text(await h.call("run_terminal_cmd", { command: "echo before; kill -9 $$; echo after", description: "k" }))).toBe(
      "exit: killed (signal 9)\nbefore\n",
    );
    expect(text(await h.call("run_terminal_cmd", { command: "kill -TERM $$", description: "k" }))).toBe("exit: killed (signal 15)\n");
    expect(text(await h.call("run_terminal_cmd", { command: "exit 137", description: "k" }))).toBe("exit: 137\n");
    const killed = await startBg("echo bg; kill -9 $$");
    const exited = await startBg("exit 137");
    const waited = text(await h.call("wait_tasks", { task_ids: [killed.id, exited.id], mode: "wait_all", timeout_ms: 10_000 }));
    expect(waited).toContain(`--- Task ${killed.id} [failed] ---\nCommand: echo bg; kill -9 $$\n`);
    expect(waited).toContain(`--- Task ${exited.id} [failed] ---\nCommand: exit 137\n`);
    const one = text(await h.call("get_task_output", { task_ids: [killed.id] }));
    expect(one).toMatch(new RegExp(`^=== Task ${killed.id} ===\\nCommand: echo bg; kill -9 \\$\\$\\nStatus: failed\\nDuration: [0-9.]+s\\nOutput File: `));
    expect(one).not.toContain("Exit Code");
    expect(text(await h.call("get_task_output", { task_ids: [exited.id] }))).toContain("Status: failed\nDuration: ");
    expect(text(await h.call("get_task_output", { task_ids: [exited.id] }))).toContain("Exit Code: 137\n");
  });

  it("answers ids with a NUL as unknown ids, with the spec's not-found texts and no internals", async () => {
    const { id } = await startBg("sleep 0.1");
    const bad = "x\u0000y";
    const get = await h.call("get_task_output", { task_ids: [bad] });
    expect(!get.ok && get.error).toMatchObject({ code: ErrorCode.INVALID_INPUT, message: `Task ${bad} not found. Known task IDs: [${id}]` });
    for (const tool of ["kill_task", "kill_terminal_command"]) {
      const kill = await h.call(tool, { task_id: bad });
      expect(!kill.ok && kill.error).toMatchObject({
        code: ErrorCode.INVALID_INPUT,
        message: `Task or subagent ${bad} not found. Known bash task IDs: [${id}]`,
      });
    }
    expect(text(await h.call("wait_tasks", { task_ids: [bad], mode: "wait_any", timeout_ms: 10 }))).toBe(
      `=== Multi-wait (wait_any) ===\n--- Task ${bad} [not_found] ---\nCommand: \nDuration: 0.00s\nTask ${bad} not found.\n\n0/1 tasks completed (wait_any)`,
    );
    expect(text(await h.call("get_task_output", { task_ids: [id, bad] }))).toContain(
      `--- Task ${bad} [not_found] ---\nCommand: \nDuration: 0.00s\nTask ${bad} not found.\n`,
    );
  });
});
