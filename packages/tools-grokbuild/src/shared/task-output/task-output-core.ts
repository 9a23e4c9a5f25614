/**
 * The shared logic of `get_task_output`, `get_terminal_command_output` and `wait_tasks`:
 * snapshot → result conversion with its output budget, still-running hints, single and
 * multi-id resolution, blocking waits with the per-call cap, not-found texts, and the
 * prompt formats (spec §4.7, §13.4, §13.18).
 */
import { ErrorCode, ToolError, type OutputLimitSpec, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { maxWaitBlockMs, truncateUtf8 } from "@grok-tools/runtime/helpers";
import { taskManagerService, type SubagentSnapshot, type TaskManager, type TaskSnapshot, type WaitOutcome } from "@grok-tools/tasks";
import { fitSubagentOutput, subagentCommand, subagentExitCode, subagentOutputBody } from "../subagents/subagent-output.js";
import { formatWaitedDuration, softWrapLines } from "../shell/index.js";
import type { MultiTaskOutputResult, TaskOutputOutput, TaskOutputResult } from "./schema.js";
import { LEGACY_0_4_10 } from "../versions.js";

/** Default wait of `wait_tasks` and of multi-id waits without `timeout_ms`. */
export const DEFAULT_WAIT_TIMEOUT_MS = 30_000;
/** Most ids per call. */
export const MAX_MULTI_WAIT_IDS = 20;
/** Output budget of get_task_output (bytes). */
export const DEFAULT_TASK_OUTPUT_BYTES = 40_000;
/** Preview kept when a task's output is over budget. */
export const PREVIEW_BYTES = 2_000;

/**
 * The output limit of a task-output tool (spec §8.4): keyed by the tool's own canonical name
 * (`get_task_output`, `get_terminal_command_output`, `wait_tasks`), whatever the host renames it to.
 */
export function taskOutputLimit(toolId: string): OutputLimitSpec {
  return { key: toolId, builtin: DEFAULT_TASK_OUTPUT_BYTES };
}

/** Why a still-running task is still running, for its hint. */
export type WaitHint = { kind: "not_requested" } | { kind: "elapsed"; requestedMs: number; waitedMs: number } | { kind: "returned_early" };

/** The hint appended to a running task's output. */
export function stillRunningHint(hint: WaitHint): string {
  let lead: string;
  if (hint.kind === "elapsed") {
    const waited = formatWaitedDuration(hint.waitedMs);
    lead =
      hint.requestedMs > hint.waitedMs
        ? `Waited ${waited}, the per-call maximum, of the ${formatWaitedDuration(hint.requestedMs)} you requested; the task is still running. You do not need to call this again.`
        : `Waited the requested ${waited}; the task is still running.`;
  } else if (hint.kind === "returned_early") {
    lead = "Wait returned early because another finished; this task is still running.";
  } else {
    lead = "Use timeout_ms to wait for completion.";
  }
  return `${lead} You will be notified automatically when the task completes.`;
}

function rfc3339Seconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The status word of a snapshot. */
export function taskStatus(s: TaskSnapshot): string {
  if (!s.completed) return "running";
  if (s.explicitlyKilled) return "cancelled";
  if (s.signal === "timeout") return "timed_out";
  return s.exitCode === 0 ? "completed" : "failed";
}

/** Converts a snapshot to a result, applying the output budget and the running hint. */
export function snapshotToResult(s: TaskSnapshot, readTool: string, maxOutputBytes: number, hint: WaitHint): TaskOutputResult {
  const outputBytes = Buffer.byteLength(s.output);
  const rawOutputBytes = Math.max(s.outputTotalBytes, outputBytes);
  let output: string;
  let truncated: boolean;
  if (outputBytes > maxOutputBytes) {
    output = `${truncateUtf8(s.output, PREVIEW_BYTES).text}\n\n[Output truncated - ${rawOutputBytes} bytes total. Use ${readTool} on ${s.outputFile} for full content]`;
    truncated = true;
  } else {
    output = softWrapLines(s.output);
    truncated = s.truncated;
  }
  const end = s.endTime ?? new Date();
  const status = taskStatus(s);
  if (status === "running") output = `${output}\n\n${stillRunningHint(hint)}`;
  return {
    task_id: s.taskId,
    command: s.displayCommand ?? s.command,
    status,
    exit_code: s.exitCode,
    started: rfc3339Seconds(s.startTime),
    ended: s.endTime ? rfc3339Seconds(s.endTime) : null,
    duration_secs: Math.max(0, (end.getTime() - s.startTime.getTime()) / 1000),
    output,
    output_file: s.outputFile,
    truncated,
    truncation_hint: `[truncated - use ${readTool} on output_file for full content]`,
    raw_output_bytes: rawOutputBytes,
  };
}

/** Converts a subagent child's snapshot to a result (spec §4.7 "Subagent result"). */
export function subagentToResult(s: SubagentSnapshot, maxOutputBytes: number, hint: WaitHint): TaskOutputResult {
  const fitted = fitSubagentOutput(subagentOutputBody(s), maxOutputBytes, PREVIEW_BYTES);
  const running = s.status === "initializing" || s.status === "running";
  const end = s.endTime ?? new Date();
  return {
    task_id: s.id,
    command: subagentCommand(s),
    status: s.status,
    exit_code: subagentExitCode(s),
    started: rfc3339Seconds(s.startTime),
    ended: s.endTime ? rfc3339Seconds(s.endTime) : null,
    duration_secs: Math.max(0, (end.getTime() - s.startTime.getTime()) / 1000),
    output: running ? `${fitted.output}\n\n${stillRunningHint(hint)}` : fitted.output,
    output_file: "",
    truncated: fitted.truncated,
    truncation_hint: "",
    raw_output_bytes: fitted.totalBytes,
  };
}

/** Every id get_task_output knows: commands first, then subagents. */
export function knownTaskIds(manager: TaskManager): string[] {
  return [...manager.knownIds(), ...manager.subagents.knownIds()];
}

/** A multi-id row for an unknown id. */
export function notFoundResult(taskId: string): TaskOutputResult {
  return {
    task_id: taskId,
    command: "",
    status: "not_found",
    exit_code: null,
    started: "",
    ended: null,
    duration_secs: 0,
    output: `Task ${taskId} not found.`,
    output_file: "",
    truncated: false,
    truncation_hint: "",
    raw_output_bytes: 0,
  };
}

/** Terminal statuses (counted in the multi summary). */
export function isTerminalStatus(status: string): boolean {
  return status === "completed" || status === "failed" || status === "cancelled" || status === "timed_out";
}

/** `=== Task … ===` prompt of one result. */
export function formatResult(r: TaskOutputResult): string {
  const lines = [`=== Task ${r.task_id} ===`, `Command: ${r.command}`, `Status: ${r.status}`, `Duration: ${r.duration_secs.toFixed(2)}s`];
  if (r.exit_code !== null) lines.push(`Exit Code: ${r.exit_code}`);
  if (r.output_file !== "") lines.push(`Output File: ${r.output_file}`);
  lines.push("", "=== Output ===");
  lines.push(r.output !== "" ? r.output : r.status === "running" ? "(no output yet)" : "(no output)");
  if (r.truncated) lines.push(r.truncation_hint);
  return lines.join("\n");
}

/** `=== Multi-wait (mode) ===` prompt. */
export function formatMulti(m: MultiTaskOutputResult): string {
  const lines = [`=== Multi-wait (${m.mode}) ===`];
  for (const r of m.results) {
    lines.push(`--- Task ${r.task_id} [${r.status}] ---\nCommand: ${r.command}\nDuration: ${r.duration_secs.toFixed(2)}s`);
    if (r.exit_code !== null) lines.push(`Exit Code: ${r.exit_code}`);
    if (r.output !== "") lines.push(r.output);
  }
  lines.push(`\n${m.summary}`);
  return lines.join("\n");
}

/** The not-found text of get_task_output (current lists the known ids; legacy does not). */
export function taskNotFoundMessage(taskId: string, manager: TaskManager, legacy: boolean): string {
  if (legacy) return `Task ${taskId} not found`;
  const known = knownTaskIds(manager);
  if (known.length === 0) return `Task ${taskId} not found. No background tasks or subagents exist in this session.`;
  return `Task ${taskId} not found. Known task IDs: [${known.join(", ")}]`;
}

interface Env {
  manager: TaskManager;
  readTool: string;
  maxOutputBytes: number;
}

function envOf(ctx: ToolContext<unknown>): Env {
  return {
    manager: ctx.session.service(taskManagerService),
    readTool: ctx.names.tool("read") ?? "",
    maxOutputBytes: ctx.outputLimit,
  };
}

async function resolveAll(env: Env, ids: readonly string[], hint: WaitHint): Promise<{ results: TaskOutputResult[]; pending: string[] }> {
  const results: TaskOutputResult[] = [];
  const pending: string[] = [];
  for (const id of ids) {
    const snapshot = await env.manager.snapshot(id);
    if (!snapshot) {
      const child = env.manager.subagents.snapshot(id);
      if (!child) {
        results.push(notFoundResult(id));
        continue;
      }
      if (env.manager.subagents.isPending(id)) pending.push(id);
      results.push(subagentToResult(child, env.maxOutputBytes, hint));
      continue;
    }
    if (!snapshot.completed) pending.push(id);
    results.push(snapshotToResult(snapshot, env.readTool, env.maxOutputBytes, hint));
  }
  return { results, pending };
}

function multiOutput(mode: string, results: TaskOutputResult[]): ToolResult<TaskOutputOutput> {
  const done = results.filter((r) => isTerminalStatus(r.status)).length;
  const multi: MultiTaskOutputResult = { mode, results, summary: `${done}/${results.length} tasks completed (${mode})` };
  const promptText = formatMulti(multi);
  return { output: { type: "TaskOutput", MultiResult: multi }, promptText, truncated: results.some((r) => r.truncated) };
}

/** Trimmed, de-duplicated, non-blank ids in first-seen order. */
export function resolveTaskIds(ids: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of ids) {
    const id = raw.trim();
    if (id !== "" && !out.includes(id)) out.push(id);
  }
  return out;
}

function checkCount(ids: readonly string[], emptyMessage: string): void {
  if (ids.length === 0) throw new ToolError(ErrorCode.INVALID_INPUT, emptyMessage, { suggestion: "Pass the task ids returned when the tasks were started." });
  if (ids.length > MAX_MULTI_WAIT_IDS)
    throw new ToolError(ErrorCode.INVALID_INPUT, `task_ids exceeds maximum of ${MAX_MULTI_WAIT_IDS} entries.`, {
      suggestion: "Split the ids over several calls.",
    });
}

/** `get_task_output` / `get_terminal_command_output`. */
export async function executeGetTaskOutput(
  input: { task_ids?: string[]; timeout_ms?: number },
  ctx: ToolContext<unknown>,
): Promise<ToolResult<TaskOutputOutput>> {
  const ids = resolveTaskIds(input.task_ids ?? []);
  checkCount(ids, "Provide a non-empty task_ids list.");
  const env = envOf(ctx);
  const waits = input.timeout_ms !== undefined && input.timeout_ms > 0;
  const requestedMs = input.timeout_ms !== undefined ? input.timeout_ms : DEFAULT_WAIT_TIMEOUT_MS;
  const waitMs = Math.min(requestedMs, maxWaitBlockMs());
  if (ids.length === 1) {
    const id = ids[0]!;
    const hint: WaitHint = waits ? { kind: "elapsed", requestedMs, waitedMs: waitMs } : { kind: "not_requested" };
    if (!(await env.manager.snapshot(id)) && env.manager.subagents.has(id)) {
      if (waits) await env.manager.waitForSubagent(id, waitMs, ctx.signal);
      const result = subagentToResult(env.manager.subagents.snapshot(id)!, env.maxOutputBytes, hint);
      return { output: { type: "TaskOutput", Result: result }, promptText: formatResult(result), truncated: result.truncated };
    }
    const snapshot = waits ? await env.manager.waitForCompletion(id, waitMs, ctx.signal) : await env.manager.snapshot(id);
    if (!snapshot) {
      const message = taskNotFoundMessage(id, env.manager, ctx.contractVersion === LEGACY_0_4_10);
      throw new ToolError(ErrorCode.INVALID_INPUT, message, {
        details: { task_id: id, known_task_ids: knownTaskIds(env.manager) },
        suggestion: "Use a task id returned by a background command.",
      });
    }
    const result = snapshotToResult(snapshot, env.readTool, env.maxOutputBytes, hint);
    return { output: { type: "TaskOutput", Result: result }, promptText: formatResult(result), truncated: result.truncated };
  }
  const initial = await resolveAll(env, ids, { kind: "not_requested" });
  if (!waits || initial.pending.length === 0) return multiOutput(waits ? "wait_all" : "poll", initial.results);
  const outcome = await env.manager.waitForAll(initial.pending, waitMs, ctx.signal);
  const hint: WaitHint = outcome === "timed_out" ? { kind: "elapsed", requestedMs, waitedMs: waitMs } : { kind: "returned_early" };
  return multiOutput("wait_all", (await resolveAll(env, ids, hint)).results);
}

/** `wait_tasks`: wait_all (absent or 0 timeout → 30 s) or wait_any (0 → no wait). */
export async function executeWaitTasks(
  input: { task_ids: string[]; mode: "wait_any" | "wait_all"; timeout_ms?: number },
  ctx: ToolContext<unknown>,
): Promise<ToolResult<TaskOutputOutput>> {
  checkCount(input.task_ids, "task_ids must not be empty.");
  const env = envOf(ctx);
  const ids = input.task_ids;
  const requestedMs =
    input.mode === "wait_all"
      ? input.timeout_ms !== undefined && input.timeout_ms > 0
        ? input.timeout_ms
        : DEFAULT_WAIT_TIMEOUT_MS
      : (input.timeout_ms ?? DEFAULT_WAIT_TIMEOUT_MS);
  const waitMs = Math.min(requestedMs, maxWaitBlockMs());
  const initial = await resolveAll(env, ids, { kind: "not_requested" });
  if (initial.pending.length === 0) return multiOutput(input.mode, initial.results);
  // No wait at all (wait_any with 0) counts as the requested wait having elapsed.
  let outcome: WaitOutcome = "timed_out";
  if (waitMs > 0) {
    outcome =
      input.mode === "wait_all"
        ? await env.manager.waitForAll(initial.pending, waitMs, ctx.signal)
        : await env.manager.waitForAny(initial.pending, waitMs, ctx.signal);
  }
  const hint: WaitHint = outcome === "timed_out" ? { kind: "elapsed", requestedMs, waitedMs: waitMs } : { kind: "returned_early" };
  return multiOutput(input.mode, (await resolveAll(env, ids, hint)).results);
}
