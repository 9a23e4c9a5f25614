/**
 * TaskCompletionReminder (spec §6.2.1): completed background tasks are reported once, after the
 * next successful call, with the client name of the task-output tool; outputs that already report
 * a completion consume it; a new background start lists the others still running.
 */
import path from "node:path";
import { Type, defineNamespace, defineTool } from "@grok-tools/runtime";
import { ToolRegistry, type Session } from "@grok-tools/runtime/host";
import { taskManagerService, type TaskSnapshot } from "@grok-tools/tasks";
import { consumedCompletionIds, formatBashCompletion, taskCompletionReminder, truncateWithPreview } from "../../src/reminders/task-completion.js";
import { makeSession, tempDirs } from "./helpers.js";

const Out = Type.Union([
  Type.Object({ type: Type.Literal("BackgroundTaskStarted"), task_id: Type.String() }),
  Type.Object({ type: Type.Literal("TaskOutput"), Result: Type.Object({ task_id: Type.String(), status: Type.String() }) }),
  Type.Object({ type: Type.Literal("Text"), text: Type.String() }),
]);

/** A minimal background-only bash. */
const bg = defineTool({
  id: "bg",
  kind: "execute",
  description: "Start in the background.",
  input: Type.Object({ command: Type.String() }),
  output: Out,
  params: {
    resourceId: "grok_build.Bash",
    schema: Type.Object({ surface_bg_completion_reminders: Type.Boolean() }),
    defaults: { surface_bg_completion_reminders: true },
  },
  async execute(input, ctx) {
    const task = await ctx.session.service(taskManagerService).startBackground({
      command: input.command,
      cwd: ctx.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      logFile: path.join(ctx.session.sessionDir, "terminal", `${ctx.callId}.log`),
      outputLimitChars: 20_000,
      toolCallId: ctx.callId,
    });
    return { output: { type: "BackgroundTaskStarted" as const, task_id: task.id }, promptText: `started ${task.id}` };
  },
});

const output = defineTool({
  id: "out",
  kind: "background_task_action",
  description: "Task output.",
  input: Type.Object({ id: Type.String() }),
  output: Out,
  async execute(input, ctx) {
    const snap = await ctx.session.service(taskManagerService).waitForCompletion(input.id, 5000);
    return {
      output: { type: "TaskOutput" as const, Result: { task_id: input.id, status: snap?.completed ? "completed" : "running" } },
      promptText: `output of ${input.id}`,
    };
  },
});

const noop = defineTool({
  id: "noop",
  kind: "other",
  description: "Nothing.",
  input: Type.Object({}),
  output: Out,
  async execute() {
    return { output: { type: "Text" as const, text: "" }, promptText: "noop" };
  },
});

const ns = defineNamespace({ name: "Bg", apiVersion: 1, tools: [bg, output, noop], reminders: [taskCompletionReminder] });

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let session: Session;
beforeEach(async () => {
  dirs = await tempDirs();
  session = makeSession(dirs, { registry: ToolRegistry.of([ns]) });
});
afterEach(async () => {
  await session.close();
  await dirs.cleanup();
});

async function waitDone(id: string): Promise<void> {
  await session.service(taskManagerService).waitForCompletion(id, 5000);
}

function taskId(promptText: string): string {
  return promptText.replace(/^started /, "").split("\n")[0]!;
}

it("reports a completed background task once, after the next call", async () => {
  await session.finalize({
    tools: [{ id: "Bg:bg", nameOverride: "run" }, { id: "Bg:out", nameOverride: "get_output" }, { id: "Bg:noop" }],
    systemRemindersEnabled: true,
  });
  const started = await session.execute({ toolName: "run", inputJson: '{"command":"echo hi"}' });
  if (!started.ok) throw new Error(started.error.message);
  const id = taskId(started.promptText);
  await waitDone(id);
  const next = await session.execute({ toolName: "noop", inputJson: "{}" });
  expect(next.ok && next.promptText).toMatch(
    new RegExp(
      `^noop\\n\\n<system-reminder>\\nBackground task "${id}" completed \\(exit code: 0\\)\\.\\nCommand: echo hi \\| Duration: \\d+\\.\\ds\\nUse get_output\\("${id}"\\) to see the full output\\.\\n</system-reminder>$`,
    ),
  );
  const again = await session.execute({ toolName: "noop", inputJson: "{}" });
  expect(again.ok && again.promptText).toBe("noop");
  expect((await session.snapshotState()).state).toEqual({ "grok_build.ReportedTaskCompletions": { reported: [id] } });
});

it("treats a task-output result with status completed as consumed, and warns about running tasks", async () => {
  await session.finalize({ tools: [{ id: "Bg:bg" }, { id: "Bg:out" }, { id: "Bg:noop" }], systemRemindersEnabled: true });
  const first = await session.execute({ toolName: "bg", inputJson: '{"command":"sleep 5"}' });
  const second = await session.execute({ toolName: "bg", inputJson: '{"command":"echo two"}' });
  if (!first.ok || !second.ok) throw new Error("start failed");
  const firstId = taskId(first.promptText);
  const secondId = taskId(second.promptText);
  expect(second.promptText).toMatch(
    new RegExp(
      `^started ${secondId}\\n\\n<system-reminder>\\nNote: 1 other background task is still running:\\n- "${firstId}" \\(running for \\d+s\\): sleep 5\\nConsider killing duplicate tasks with kill_command_or_subagent before launching new ones\\.\\n</system-reminder>$`,
    ),
  );
  const out = await session.execute({ toolName: "out", inputJson: JSON.stringify({ id: secondId }) });
  expect(out.ok && out.promptText).toBe(`output of ${secondId}`);
  await session.service(taskManagerService).kill(firstId);
});

it("stays silent with reminders off or surface_bg_completion_reminders=false, still marking ids reported", async () => {
  await session.finalize({
    tools: [{ id: "Bg:bg", paramsJson: '{"surface_bg_completion_reminders":false}' }, { id: "Bg:noop" }],
    systemRemindersEnabled: true,
  });
  const started = await session.execute({ toolName: "bg", inputJson: '{"command":"echo quiet"}' });
  if (!started.ok) throw new Error(started.error.message);
  const id = taskId(started.promptText);
  await waitDone(id);
  const next = await session.execute({ toolName: "noop", inputJson: "{}" });
  expect(next.ok && next.promptText).toBe("noop");
  expect((await session.snapshotState()).state).toEqual({ "grok_build.ReportedTaskCompletions": { reported: [id] } });
});

describe("helpers", () => {
  const snapshot = (over: Partial<TaskSnapshot>): TaskSnapshot => ({
    taskId: "t1",
    kind: "bash",
    command: "make",
    cwd: "/",
    startTime: new Date(0),
    endTime: new Date(2500),
    output: "x".repeat(5000),
    outputFile: "/s/terminal/t1.log",
    truncated: false,
    outputTotalBytes: 5000,
    exitCode: 2,
    signal: null,
    completed: true,
    blockWaited: false,
    explicitlyKilled: false,
    isBackgrounded: true,
    ...over,
  });

  it("inlines a preview when there is no task-output tool", () => {
    expect(formatBashCompletion(snapshot({}), undefined, "read_file")).toBe(
      `Background task "t1" completed (exit code: 2).\nCommand: make | Duration: 2.5s\nresponse:\n${"x".repeat(2000)}\n\n[Output truncated - 5000 bytes total. Use read_file on /s/terminal/t1.log for full content]`,
    );
    expect(formatBashCompletion(snapshot({ output: "ok\n", outputTotalBytes: 3 }), undefined, undefined)).toBe(
      'Background task "t1" completed (exit code: 2).\nCommand: make | Duration: 2.5s\nresponse:\nok\n',
    );
  });

  it("warns about quick deaths by signal", () => {
    expect(formatBashCompletion(snapshot({ signal: "signal 15", endTime: new Date(100), displayCommand: "pkill -f make" }), "get_task_output", undefined)).toBe(
      'Background task "t1" completed (terminated by signal signal 15).\nCommand: pkill -f make | Duration: 0.1s\nNote: this is much shorter than expected for a backgrounded command. The wrapper bash may have been killed by signal (e.g. `pkill -f <pat>` matching its own argv) before the inner command ran. Re-check the command for self-matching kill patterns, signals sent by the script itself, or upstream sources of SIGTERM/SIGHUP.\nUse get_task_output("t1") to see the full output.',
    );
  });

  it("previews like truncate_with_preview", () => {
    expect(truncateWithPreview("abc", 3, 10, 5)).toBe("abc");
    expect(truncateWithPreview("abc", 30, 10, 5, "hint")).toBe("abc\n\n[Output truncated - 30 bytes total. hint]");
    expect(truncateWithPreview("aé".repeat(10), 30, 10, 5)).toBe("aéa\n\n[Output truncated - 30 bytes total]");
  });

  it("finds consumed ids", () => {
    expect(
      consumedCompletionIds({
        type: "TaskOutput",
        MultiResult: {
          results: [
            { task_id: "a", status: "completed" },
            { task_id: "b", status: "running" },
          ],
        },
      }),
    ).toEqual(["a"]);
    expect(consumedCompletionIds({ type: "KillTask", Result: { task_id: "k", outcome: "killed", message: "" } })).toEqual(["k"]);
    expect(consumedCompletionIds({ type: "Text", text: "This is the output of the subagent: x\nAgent ID: 0190abc more" })).toEqual(["0190abc"]);
    expect(consumedCompletionIds({ type: "Bash" })).toEqual([]);
  });
});
