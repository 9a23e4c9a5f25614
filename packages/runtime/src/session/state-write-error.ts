/**
 * The answer of a call whose state change could not be saved (issues 22.2, 23.1): the call did its
 * work, but it cannot say ok, because ok means durable. The message says what happened and what did not.
 */
import { ErrorCode } from "../errors/error-code.js";
import { rustIoErrorText } from "../fs/io-error-text.js";
import type { ExecuteOutcome, ToolErrorInfo } from "../execute/execute-types.js";

/** The tool error of a call to `toolName` whose state write to `stateFile` failed with `error`. */
export function stateWriteError(toolName: string, stateFile: string, error: unknown): ToolErrorInfo {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return {
    code: ErrorCode.EXECUTION_FAILED,
    message:
      `${toolName} ran, but the session state could not be saved to ${stateFile}: ${rustIoErrorText(error)}. ` +
      "What the call did has taken effect (files it wrote are written, commands it ran have run) and its state change is kept in memory, " +
      "but it is not on disk, so a restart of the server would lose it. Do not repeat the call.",
    suggestion: "Make the state folder writable (or free disk space); the next call that changes state saves everything again.",
    detailsJson: JSON.stringify({ state_file: stateFile, ...(code === undefined ? {} : { errno: code }) }),
    retryable: false,
  };
}

/** `outcome` turned into the state-write failure (a failed call keeps its own error). */
export function withStateWriteFailure(outcome: ExecuteOutcome, toolName: string, stateFile: string, error: unknown): ExecuteOutcome {
  if (!outcome.ok) return outcome;
  return { ok: false, callId: outcome.callId, metadata: outcome.metadata, error: stateWriteError(toolName, stateFile, error) };
}
