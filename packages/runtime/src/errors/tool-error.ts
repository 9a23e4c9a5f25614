/**
 * ToolError: the one way a tool reports a failure to the model and the host.
 * Recognised across package copies by a global brand, never by `instanceof`.
 */
import { ErrorCode, isRetryableByDefault } from "./error-code.js";

const TOOL_ERROR_BRAND = Symbol.for("@grok-tools/runtime.ToolError");

/** Options of a {@link ToolError} beyond its code and message. */
export interface ToolErrorOptions {
  /** What the model should do next. */
  suggestion?: string;
  /** The file the error is about, when there is one. */
  filePath?: string;
  /** The 1-based line the error is about, when there is one. */
  lineNumber?: number;
  /** Structured context, sent to the host as `details_json`. */
  details?: unknown;
  /** Overrides the default retryability of the code. */
  retryable?: boolean;
  /** The underlying cause, logged by the server and never shown to the model. */
  cause?: unknown;
}

/** A failure written for the model: what went wrong and what to do next. */
export class ToolError extends Error {
  readonly [TOOL_ERROR_BRAND] = true;
  readonly code: ErrorCode;
  readonly suggestion: string | undefined;
  readonly filePath: string | undefined;
  readonly lineNumber: number | undefined;
  readonly details: unknown;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: ToolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolError";
    this.code = code;
    this.suggestion = options.suggestion;
    this.filePath = options.filePath;
    this.lineNumber = options.lineNumber;
    this.details = options.details;
    this.retryable = options.retryable ?? isRetryableByDefault(code);
  }

  /** True for a ToolError from any copy of the runtime. */
  static is(value: unknown): value is ToolError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[TOOL_ERROR_BRAND] === true;
  }

  static invalidInput(message: string, options?: ToolErrorOptions): ToolError {
    return new ToolError(ErrorCode.INVALID_INPUT, message, options);
  }

  static internal(cause: unknown): ToolError {
    return new ToolError(ErrorCode.INTERNAL, "Internal error while running the tool. The server log has the details.", {
      cause,
    });
  }
}
