/**
 * The runtime's view of an ExecuteTool request and its outcome, independent of the proto.
 */
import type { ErrorCode } from "../errors/error-code.js";
import type { CallSignal } from "./call-cancellation.js";
import type { PartialOutput } from "../tool/tool-context.js";

/** An `ExecuteToolRequest` with its `ExecutionOptions` flattened. */
export interface ExecuteRequest {
  toolName: string;
  inputJson: string;
  callId?: string;
  timeoutMs?: number;
  background?: boolean;
  outputFormat?: "default" | "concise";
  workingDirectory?: string;
  includeFields?: readonly string[];
  excludeFields?: readonly string[];
  /** Aborted when the caller cancels: an AbortSignal, or the server's cheaper `CallCancellation`. */
  signal?: CallSignal;
  /** Receives partial output while the tool runs (streaming callers). */
  onPartial?: (partial: PartialOutput) => void;
  /**
   * Receives the tool's live output (`ctx.emitOutput`) while the call runs; never called after the
   * call's outcome is known. Must not throw or block: buffer and cap on the caller's side.
   */
  onOutput?: (chunk: Uint8Array) => void;
}

/** `ExecutionMetadata`. */
export interface ExecutionMetadataInfo {
  durationMs: number;
  estimatedTokens: number;
  truncated: boolean;
  toolVersion: string;
  contractVersion: string;
}

/** A `ToolError` as data. */
export interface ToolErrorInfo {
  code: ErrorCode;
  message: string;
  detailsJson?: string;
  retryable: boolean;
  suggestion?: string;
  filePath?: string;
  lineNumber?: number;
}

/**
 * The result of a call: success with output, or a ToolError. Never an exception. `replayed`: the
 * answer of an earlier call with the same call_id, given again instead of running the tool (issue #21).
 */
export type ExecuteOutcome =
  | { ok: true; callId: string; outputJson: string; promptText: string; metadata: ExecutionMetadataInfo; replayed?: true }
  | { ok: false; callId: string; error: ToolErrorInfo; metadata: ExecutionMetadataInfo; replayed?: true };
