/**
 * Checks of string arguments that a tool hands to the OS (paths, patterns passed to a program's
 * command line): no NUL byte, and a size the command line can carry. They turn what would be an
 * internal error of a system call into a clear INVALID_INPUT; the tool decides which fields to check.
 */
import { ErrorCode } from "../errors/error-code.js";
import { ToolError } from "../errors/tool-error.js";

/**
 * The largest string a tool passes as one argument of a program. Linux refuses any single argument
 * over 128 KiB (`MAX_ARG_STRLEN`, E2BIG at spawn); half of it leaves room for the other arguments.
 */
export const MAX_ARGUMENT_BYTES = 64 * 1024;

/** INVALID_INPUT when `value` holds a NUL byte, which no path or program argument can carry. */
export function rejectNulByte(value: string | null | undefined, what: string, suggestion?: string): void {
  if (typeof value !== "string" || !value.includes("\0")) return;
  throw new ToolError(
    ErrorCode.INVALID_INPUT,
    `Invalid ${what} (contains a NUL byte): ${JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value)}`,
    {
      suggestion: suggestion ?? `Remove the NUL byte from the ${what}.`,
    },
  );
}

/** INVALID_INPUT when `value` is longer than `maxBytes` in UTF-8 (default {@link MAX_ARGUMENT_BYTES}). */
export function rejectOversizedArgument(value: string | null | undefined, what: string, maxBytes: number = MAX_ARGUMENT_BYTES, suggestion?: string): void {
  if (typeof value !== "string" || value.length * 3 <= maxBytes) return;
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes <= maxBytes) return;
  throw new ToolError(ErrorCode.INVALID_INPUT, `Invalid ${what}: it is ${bytes} bytes long; the limit is ${maxBytes} bytes.`, {
    suggestion: suggestion ?? `Send a shorter ${what}.`,
    details: { field: what, bytes, max_bytes: maxBytes },
  });
}
