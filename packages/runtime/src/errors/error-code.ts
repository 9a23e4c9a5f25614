/**
 * Machine-readable failure codes of a tool call. The numbers are the proto's
 * `ErrorCode` values so the server maps them one to one; the runtime itself
 * knows nothing of the proto.
 */
export const ErrorCode = {
  INVALID_INPUT: 100,
  MISSING_REQUIRED_FIELD: 101,
  INVALID_TOOL_NAME: 102,
  TOOL_DISABLED: 103,
  TOOL_NOT_FOUND: 104,
  FILE_NOT_FOUND: 200,
  FILE_NOT_READ: 201,
  FILE_EXTERNALLY_MODIFIED: 202,
  FILE_ALREADY_EXISTS: 203,
  PERMISSION_DENIED: 204,
  MULTIPLE_MATCHES: 205,
  NO_MATCHES: 206,
  EXECUTION_FAILED: 300,
  TIMEOUT: 301,
  CANCELLED: 302,
  RATE_LIMITED: 303,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
} as const;

/** One of the {@link ErrorCode} values. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The name of an error code (`"FILE_NOT_FOUND"`), for logs and tests. */
export type ErrorCodeName = keyof typeof ErrorCode;

const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set([ErrorCode.TIMEOUT, ErrorCode.RATE_LIMITED]);

/** Whether a code is retryable by default (decision D1: only TIMEOUT and RATE_LIMITED). */
export function isRetryableByDefault(code: ErrorCode): boolean {
  return RETRYABLE_CODES.has(code);
}

/** The name of a numeric error code, or `"UNSPECIFIED"`. */
export function errorCodeName(code: number): ErrorCodeName | "UNSPECIFIED" {
  for (const [name, value] of Object.entries(ErrorCode)) if (value === code) return name as ErrorCodeName;
  return "UNSPECIFIED";
}
