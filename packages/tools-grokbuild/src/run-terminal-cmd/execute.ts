/**
 * Runs one `run_terminal_cmd` call: validation (background `&`, self-matching pkill,
 * disabled background), timeout resolution, the foreground or background run through the
 * session's task manager, notifications, and the output in both prompt formats.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { ErrorCode, ToolError, type OutputLimitSpec, type ToolContext, type ToolNotification, type ToolResult } from "@grok-tools/runtime";
import { childEnvironment, taskManagerService, type ProcessTask, type TaskResult } from "@grok-tools/tasks";
import { sanitizeForFileName } from "@grok-tools/runtime/helpers";
import { statPathSync } from "@grok-tools/runtime/fs";
import {
  backgroundOperatorMessage,
  findSelfMatchingPkill,
  hasBackgroundOperator,
  isBareEcho,
  isBarePrintf,
  selfMatchingPkillMessage,
} from "../shared/shell/index.js";
import { formatBackgroundStarted, formatConcisePrompt, formatDefaultPrompt, type ForegroundFacts } from "./format.js";
import type { BackgroundTaskStartedValue, BashInput, BashOutputValue, BashParams, BashToolOutput } from "./schema.js";
import { autoBackgroundEnabled, foregroundBlockBudgetMs, resolveBackgroundTimeoutMs, resolveForegroundTimeoutMs } from "./timeouts.js";
import { LEGACY_0_4_10 } from "../shared/versions.js";

/** The bash output budget in characters when neither params nor truncation config set one. */
export const DEFAULT_OUTPUT_LIMIT_CHARS = 20_000;
/** What the reference's bash description states as the limit when none is configured. */
export const BASH_DESCRIBED_DEFAULT_LIMIT_CHARS = 40_000;

/**
 * The output limit of both bash presets (spec §8.4): keyed `run_terminal_cmd` whatever the client
 * name, then the session default, then `output_byte_limit`, then 20 000 characters.
 */
export const BASH_OUTPUT_LIMIT: OutputLimitSpec<BashParams> = {
  key: "run_terminal_cmd",
  builtin: DEFAULT_OUTPUT_LIMIT_CHARS,
  fromParams: (params) => params.output_byte_limit,
  describedBuiltin: BASH_DESCRIBED_DEFAULT_LIMIT_CHARS,
};

/** Which preset's text is the main prompt. */
export type BashPreset = "default" | "concise";

/** A call id as a log file name: kept when already safe, else sanitized plus a short hash. */
export function logFileNameFor(callId: string): string {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(callId)) return `${callId}.log`;
  const hash = createHash("sha256").update(callId).digest("hex").slice(0, 12);
  return `${sanitizeForFileName(callId).slice(0, 100)}-${hash}.log`;
}

function durationJson(ms: number): { secs: number; nanos: number } {
  return { secs: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 };
}

/** Runs the call; `preset` picks which format is `promptText` (the other is `promptTextConcise`). */
export async function runTerminalCommand(input: BashInput, ctx: ToolContext<BashParams>, preset: BashPreset): Promise<ToolResult<BashToolOutput>> {
  const params = ctx.params;
  const legacy = ctx.contractVersion === LEGACY_0_4_10;
  const isBackground = input.is_background === true || (ctx.background && params.enabled_background);
  if (input.command.includes("\0")) {
    const paramName = ctx.names.param("execute", "command");
    throw new ToolError(ErrorCode.INVALID_INPUT, `Invalid ${paramName}: it contains a NUL character (\\0), which a shell command cannot contain.`, {
      suggestion: "Remove the NUL character; to produce a NUL byte, write printf '\\0' in the command.",
      details: { field: paramName },
    });
  }

  if (!isBackground && !(params.allow_background_operator && params.enabled_background) && hasBackgroundOperator(input.command, legacy)) {
    const paramName = ctx.names.param("execute", "is_background");
    throw new ToolError(ErrorCode.INVALID_INPUT, backgroundOperatorMessage(legacy, params.enabled_background, paramName), {
      suggestion: params.enabled_background
        ? `Set ${paramName}=true to run the command in the background.`
        : "Run the command in the foreground without the background operator.",
    });
  }
  const pkill = findSelfMatchingPkill(input.command);
  if (pkill) throw new ToolError(ErrorCode.INVALID_INPUT, selfMatchingPkillMessage(pkill), { suggestion: "Use pkill -x <basename> or kill by PID." });
  if (isBackground && !params.enabled_background) {
    throw new ToolError(ErrorCode.INVALID_INPUT, "Background execution is disabled.", { suggestion: "Run the command in the foreground." });
  }

  const command = params.cmd_prefix !== null ? `${params.cmd_prefix} && ${input.command}` : input.command;
  const description = input.description.trim() === "" ? null : input.description;
  const cwd = ctx.cwd;
  const outputLimitChars = ctx.outputLimit;
  const logFile = path.join(ctx.session.sessionDir, "terminal", logFileNameFor(ctx.callId));
  const manager = ctx.session.service(taskManagerService);
  const notify = (n: ToolNotification) => ctx.notify(n);
  const base = (result?: TaskResult) => ({
    tool_call_id: ctx.callId,
    command: input.command,
    output: Buffer.from(result?.output ?? "", "utf8").toString("base64"),
    total_bytes: result?.totalBytes ?? 0,
    truncated: result?.truncated ?? false,
    cwd,
  });
  const failed = (error: unknown): never => {
    if (ToolError.is(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    notify({ type: "BashExecutionFailed", tool_call_id: ctx.callId, command: input.command, cwd, error: message });
    throw new ToolError(ErrorCode.EXECUTION_FAILED, `Terminal error: ${message}`, { retryable: false });
  };
  // Synchronous on purpose: one local stat costs microseconds, a thread-pool round trip a
  // wake-up on a busy machine, on the path of every command.
  const cwdOk = isDirectory(cwd);
  if (!cwdOk) failed(new Error(`working directory does not exist: ${cwd}`));
  const spec = {
    command,
    displayCommand: input.command,
    cwd,
    env: childEnvironment(),
    logFile,
    outputLimitChars,
    ...(description !== null ? { description } : {}),
    toolCallId: ctx.callId,
    notify,
  };

  if (isBackground) {
    const timeoutMs = resolveBackgroundTimeoutMs(input.timeout);
    const task = await manager.startBackground({ ...spec, ...(timeoutMs !== undefined ? { timeoutMs } : {}), signal: ctx.signal }).catch(failed);
    notify({ type: "BashExecutionBackgrounded", ...base(), output_file: logFile, task_id: task.id, monitor_description: null, description });
    return backgroundResult(ctx, task, input.command, `Background task ${task.id} started`);
  }

  const timeoutMs = resolveForegroundTimeoutMs(input.timeout, params);
  const outcome = await manager
    .runForeground({
      ...spec,
      timeoutMs,
      ...(autoBackgroundEnabled(params) ? { autoBackground: { budgetMs: foregroundBlockBudgetMs(params) } } : {}),
      signal: ctx.signal,
    })
    .catch(failed);

  if (outcome.kind === "backgrounded") {
    notify({ type: "BashExecutionBackgrounded", ...base(outcome.result), output_file: logFile, task_id: ctx.callId, monitor_description: null, description });
    const summary = `Command "${input.command}" exceeded the default timeout and was automatically moved to background. Process is still running.`;
    return backgroundResult(ctx, outcome.task, input.command, summary);
  }

  const result = outcome.result;
  if (result.timedOut) {
    notify({ type: "BashExecutionTimeout", ...base(result), elapsed: durationJson(timeoutMs), timeout: durationJson(timeoutMs) });
  } else {
    notify({ type: "BashExecutionComplete", ...base(result), exit_code: result.exitCode, signal: result.signal });
  }
  const facts: ForegroundFacts = {
    output: result.output,
    exitCode: result.exitCode ?? -1,
    signal: result.signal,
    truncated: result.truncated,
    totalBytes: result.totalBytes,
    outputFile: logFile,
    currentDir: cwd,
  };
  const defaultPrompt = formatDefaultPrompt(facts);
  const concisePrompt = formatConcisePrompt(facts);
  const promptText = preset === "concise" ? concisePrompt : defaultPrompt;
  const wasBareEcho = isBareEcho(input.command) || isBarePrintf(input.command);
  const output: BashOutputValue = {
    type: "Bash",
    output: result.output,
    output_for_prompt: promptText,
    exit_code: facts.exitCode,
    command: input.command,
    truncated: result.truncated,
    signal: result.signal,
    timed_out: result.timedOut,
    description,
    current_dir: cwd,
    output_file: logFile,
    total_bytes: result.totalBytes,
    ...(wasBareEcho ? { was_bare_echo: true } : {}),
  };
  return { output, promptText, promptTextConcise: concisePrompt, truncated: result.truncated };
}

function isDirectory(dir: string): boolean {
  try {
    return statPathSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function backgroundResult(ctx: ToolContext<BashParams>, task: ProcessTask, command: string, summary: string): ToolResult<BashToolOutput> {
  const getOutput = ctx.names.tool("background_task_action") ?? "get_task_output";
  const idsParam = ctx.names.param("background_task_action", "task_ids");
  const output: BackgroundTaskStartedValue = {
    type: "BackgroundTaskStarted",
    task_id: task.id,
    task_type: "bash",
    output_file: task.process.logFile,
    status: "running",
    command,
    summary,
    retrieval_hint: `Use ${getOutput} tool with ${idsParam}=["${task.id}"] to retrieve the output.`,
    ...(task.process.pid === undefined ? {} : { pid: task.process.pid }),
  };
  const promptText = formatBackgroundStarted(output);
  return { output, promptText, promptTextConcise: promptText };
}
