/**
 * TaskCompletionReminder (spec §6.2.1, reference `reminders/task_completion.rs`), bash part:
 * after a successful call, report each background task of the session that completed and was
 * not reported yet, once; and when a call starts a background task while others still run,
 * list them. Subagent completions are not covered (no subagent backend in this runtime).
 */
import { defineReminder, defineResource, type ReminderContext } from "@grok-tools/runtime";
import { isPlainObject } from "@grok-tools/runtime/helpers";
import { taskManagerService, type TaskSnapshot } from "@grok-tools/tasks";

/** Inline output cap of a completion without a task-output tool (`MAX_INLINE_COMPLETION_BYTES`). */
export const MAX_INLINE_COMPLETION_BYTES = 4000;
/** Preview kept when the inline output is over the cap (`PREVIEW_SIZE`). */
export const COMPLETION_PREVIEW_BYTES = 2000;
/** The kill tool named when none is configured. */
const DEFAULT_KILL_TOOL = "kill_command_or_subagent";

/** Ids whose completion was already shown (`state` / `grok_build.ReportedTaskCompletions`). */
export const reportedTaskCompletionsResource = defineResource<{ reported: string[] }>({
  id: "grok_build.ReportedTaskCompletions",
  category: "state",
  initial: () => ({ reported: [] }),
  decode: (json) =>
    isPlainObject(json) && Array.isArray(json.reported) && json.reported.every((id) => typeof id === "string")
      ? { reported: [...(json.reported as string[])] }
      : undefined,
});

/** Ids an output already reports as finished (reference `consumed_completion_ids`, bash and text parts). */
export function consumedCompletionIds(output: unknown): string[] {
  if (!isPlainObject(output)) return [];
  const ids: string[] = [];
  if (output.type === "TaskOutput") {
    const results = isPlainObject(output.Result)
      ? [output.Result]
      : isPlainObject(output.MultiResult) && Array.isArray(output.MultiResult.results)
        ? output.MultiResult.results
        : [];
    for (const r of results) if (isPlainObject(r) && r.status === "completed" && typeof r.task_id === "string") ids.push(r.task_id);
  } else if (output.type === "KillTask" && isPlainObject(output.Result) && typeof output.Result.task_id === "string") {
    ids.push(output.Result.task_id);
  } else if (output.type === "SubagentCompleted" && typeof output.subagent_id === "string") {
    ids.push(output.subagent_id);
  } else if (output.type === "Text") {
    if (typeof output.text === "string") {
      const agentId = taskTextAgentId(output.text);
      if (agentId) ids.push(agentId);
    }
    if (typeof output.consumed_completion_task_id === "string") ids.push(output.consumed_completion_task_id);
  }
  return ids;
}

function taskTextAgentId(text: string): string | undefined {
  if (!text.startsWith("This is the output of the subagent:")) return undefined;
  const at = text.indexOf("\nAgent ID: ");
  if (at === -1) return undefined;
  const id = /^\S+/.exec(text.slice(at + "\nAgent ID: ".length))?.[0];
  return id === undefined || id === "" ? undefined : id;
}

function durationSecs(task: TaskSnapshot): number {
  const end = task.endTime ?? new Date();
  return Math.max(0, (end.getTime() - task.startTime.getTime()) / 1000);
}

/**
 * Cuts an output for inline delivery (reference `truncate_with_preview`): whole and small → as
 * is; otherwise a preview (the text itself when it fits, else its first bytes) and a footer with
 * the total size.
 */
export function truncateWithPreview(text: string, totalBytes: number, maxBytes: number, previewBytes: number, footerHint?: string): string {
  const length = Buffer.byteLength(text, "utf8");
  const whole = totalBytes <= length;
  if (whole && length <= maxBytes) return text;
  const footer = footerHint === undefined ? `[Output truncated - ${totalBytes} bytes total]` : `[Output truncated - ${totalBytes} bytes total. ${footerHint}]`;
  if (length <= maxBytes) return `${text}\n\n${footer}`;
  const bytes = Buffer.from(text, "utf8");
  let end = Math.min(previewBytes, bytes.length);
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString("utf8")}\n\n${footer}`;
}

/** `Background task "{id}" completed (…).` with its delivery (reference `format_bash_completion`). */
export function formatBashCompletion(task: TaskSnapshot, taskOutputTool: string | undefined, readTool: string | undefined): string {
  const command = task.displayCommand ?? task.command;
  const secs = durationSecs(task);
  const status = task.signal !== null ? `terminated by signal ${task.signal}` : `exit code: ${task.exitCode === null ? "unknown" : String(task.exitCode)}`;
  let message = `Background task "${task.taskId}" completed (${status}).\nCommand: ${command} | Duration: ${secs.toFixed(1)}s\n`;
  if (task.signal !== null && secs < 1) {
    message +=
      "Note: this is much shorter than expected for a backgrounded command. The wrapper bash may have been killed by signal (e.g. `pkill -f <pat>` matching its own argv) before the inner command ran. Re-check the command for self-matching kill patterns, signals sent by the script itself, or upstream sources of SIGTERM/SIGHUP.\n";
  }
  if (taskOutputTool !== undefined) return `${message}Use ${taskOutputTool}("${task.taskId}") to see the full output.`;
  const footer = readTool === undefined ? undefined : `Use ${readTool} on ${task.outputFile} for full content`;
  if (footer === undefined) return `${message}response:\n${task.output}`;
  return `${message}response:\n${truncateWithPreview(task.output, task.outputTotalBytes, MAX_INLINE_COMPLETION_BYTES, COMPLETION_PREVIEW_BYTES, footer)}`;
}

/** `Note: N other background tasks are still running: …` (reference `format_running_tasks_warning`). */
export function formatRunningTasksWarning(running: readonly TaskSnapshot[], killTool: string | undefined): string {
  const label = running.length === 1 ? "task is" : "tasks are";
  let text = `Note: ${running.length} other background ${label} still running:\n`;
  for (const task of running) text += `- "${task.taskId}" (running for ${durationSecs(task).toFixed(0)}s): ${task.displayCommand ?? task.command}\n`;
  return `${text}Consider killing duplicate tasks with ${killTool ?? DEFAULT_KILL_TOOL} before launching new ones.`;
}

async function sessionTasks(ctx: ReminderContext): Promise<TaskSnapshot[]> {
  const manager = ctx.session.service(taskManagerService);
  if (manager.isEmpty) return [];
  const snapshots = await Promise.all(manager.knownIds().map((id) => manager.snapshot(id)));
  return snapshots.filter((s): s is TaskSnapshot => s !== undefined && s.isBackgrounded);
}

/** The Bash params as seen from here (the session registers the real key with its defaults). */
const bashParamsKey = defineResource<unknown>({ id: "grok_build.Bash", category: "params", initial: () => ({}) });

/** Whether the Bash params allow completion reminders (`surface_bg_completion_reminders`, default true). */
function surfaceCompletions(ctx: ReminderContext): boolean {
  const key = bashParamsKey;
  if (!ctx.session.resources.has(key)) return true;
  const params = ctx.session.resources.get(key);
  return !(isPlainObject(params) && params.surface_bg_completion_reminders === false);
}

/** The reminder; active when the toolset has an execute-kind tool. */
export const taskCompletionReminder = defineReminder({
  id: "task_completion",
  resources: [reportedTaskCompletionsResource],
  isActive: (toolset) => toolset.hasKind("execute"),
  async collect(ctx) {
    const tasks = await sessionTasks(ctx);
    const consumed = consumedCompletionIds(ctx.output);
    if (tasks.length === 0 && consumed.length === 0) return [];
    const resources = ctx.session.resources;
    const reported = new Set(resources.get(reportedTaskCompletionsResource).reported);
    const before = reported.size;
    for (const id of consumed) reported.add(id);
    const reminders: string[] = [];
    const surface = surfaceCompletions(ctx);
    const outputTool = ctx.toolset.clientNameOfKind("background_task_action");
    const readTool = ctx.toolset.clientNameOfKind("read");
    for (const task of tasks) {
      if (!task.completed || reported.has(task.taskId)) continue;
      reported.add(task.taskId);
      if (surface) reminders.push(formatBashCompletion(task, outputTool, readTool));
    }
    if (reported.size !== before) resources.set(reportedTaskCompletionsResource, { reported: [...reported] });
    const output = ctx.output;
    if (isPlainObject(output) && output.type === "BackgroundTaskStarted") {
      const running = tasks.filter((t) => !t.completed && t.taskId !== output.task_id);
      if (running.length > 0) reminders.push(formatRunningTasksWarning(running, ctx.toolset.clientNameOfKind("kill_task_action")));
    }
    return reminders;
  },
});
