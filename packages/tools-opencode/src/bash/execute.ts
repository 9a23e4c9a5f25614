/**
 * Runs one `OpenCode:bash` call in the foreground through the session's task manager (the same
 * process supervisor as every shell tool: own process group, output capped head/tail, log file):
 * timeout clamp, workdir resolution, notifications, and the prompt text (output only, no header).
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { ErrorCode, ToolError, type ToolContext, type ToolNotification, type ToolResult } from "@grok-tools/runtime";
import { statPathConfined } from "@grok-tools/runtime/fs";
import { sanitizeForFileName } from "@grok-tools/runtime/helpers";
import { childEnvironment, taskManagerService, type TaskResult } from "@grok-tools/tasks";
import { softWrapLines, stripAnsi } from "../shared/text.js";
import type { BashInput, BashOutput } from "./schema.js";

/** Timeout when the model gives none. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Ceiling of a model-given timeout. */
export const MAX_TIMEOUT_MS = 600_000;
/** The output budget in characters when the truncation config sets none (key `bash`). */
export const DEFAULT_OUTPUT_LIMIT_CHARS = 20_000;

/** The effective timeout: the model's value clamped to {@link MAX_TIMEOUT_MS}, else the default. */
export function effectiveTimeoutMs(timeout: number | null | undefined): number {
  return timeout === undefined || timeout === null ? DEFAULT_TIMEOUT_MS : Math.min(timeout, MAX_TIMEOUT_MS);
}

/** A call id as a log file name: kept when already safe, else sanitized plus a short hash. */
function logFileNameFor(callId: string): string {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(callId)) return `${callId}.log`;
  const hash = createHash("sha256").update(callId).digest("hex").slice(0, 12);
  return `${sanitizeForFileName(callId).slice(0, 100)}-${hash}.log`;
}

function durationJson(ms: number): { secs: number; nanos: number } {
  return { secs: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 };
}

/**
 * Whether the working folder `dir` exists as a folder. Outside the roots is refused first
 * (PERMISSION_DENIED, named as the model wrote it) before anything tells whether it exists (issue #19);
 * any other failure of the stat reads as "not a folder".
 */
async function isDirectory(ctx: ToolContext, dir: string, displayPath: string): Promise<boolean> {
  try {
    return (await statPathConfined(ctx.session, dir, displayPath)).isDirectory();
  } catch (error) {
    if (ToolError.is(error)) throw error;
    return false;
  }
}

/** Runs the command and builds the result. */
export async function runBash(input: BashInput, ctx: ToolContext): Promise<ToolResult<BashOutput>> {
  if (input.command.includes("\0")) {
    throw new ToolError(
      ErrorCode.INVALID_INPUT,
      `Invalid ${ctx.names.ownParam("command")}: it contains a NUL character (\\0), which a shell command cannot contain.`,
      {
        suggestion: "Remove the NUL character; to produce a NUL byte, write printf '\\0' in the command.",
      },
    );
  }
  const workdir = input.workdir ?? null;
  const cwd = workdir === null ? ctx.cwd : path.isAbsolute(workdir) ? workdir : path.join(ctx.cwd, workdir);
  const timeoutMs = effectiveTimeoutMs(input.timeout);
  const logFile = path.join(ctx.session.sessionDir, "terminal", logFileNameFor(ctx.callId));
  const notify = (n: ToolNotification) => ctx.notify(n);
  const base = (result: TaskResult) => ({
    tool_call_id: ctx.callId,
    command: input.command,
    output: Buffer.from(result.output, "utf8").toString("base64"),
    total_bytes: result.totalBytes,
    truncated: result.truncated,
    cwd,
  });
  const failed = (error: unknown): never => {
    if (ToolError.is(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    notify({ type: "BashExecutionFailed", tool_call_id: ctx.callId, command: input.command, cwd, error: message });
    throw new ToolError(ErrorCode.EXECUTION_FAILED, message, { retryable: false });
  };
  if (!(await isDirectory(ctx, cwd, workdir ?? cwd))) failed(new Error(`working directory does not exist: ${cwd}`));

  const outcome = await ctx.session
    .service(taskManagerService)
    .runForeground({
      command: input.command,
      cwd,
      env: childEnvironment(),
      logFile,
      outputLimitChars: ctx.outputLimit,
      toolCallId: ctx.callId,
      notify,
      timeoutMs,
      signal: ctx.signal,
      // Live output for a streaming caller (issue 20): the raw bytes as read, so a client sees the
      // command print while it runs; the prompt text built below stays the authoritative result.
      ...(ctx.liveOutput ? { onOutput: (chunk: Buffer) => ctx.emitOutput(chunk) } : {}),
    })
    .catch(failed);
  const result = outcome.result;
  if (result.timedOut) notify({ type: "BashExecutionTimeout", ...base(result), elapsed: durationJson(timeoutMs), timeout: durationJson(timeoutMs) });
  else notify({ type: "BashExecutionComplete", ...base(result), exit_code: result.exitCode, signal: result.signal });

  const promptText = softWrapLines(stripAnsi(result.output));
  const output: BashOutput = {
    type: "Bash",
    output: result.output,
    output_for_prompt: promptText,
    exit_code: result.exitCode ?? -1,
    command: input.command,
    truncated: result.truncated,
    signal: result.signal,
    timed_out: result.timedOut,
    description: input.description,
    current_dir: cwd,
    output_file: logFile,
    total_bytes: result.totalBytes,
  };
  return { output, promptText, truncated: result.truncated };
}
