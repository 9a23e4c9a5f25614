/**
 * The status-details trailer of a refused finalize, kept small. Trailers travel as HTTP/2 headers,
 * which peers cap: a violation echoing a 200 KB `params_json` made a trailer of about 270 KB, and the
 * client's connection then stopped answering every call on it until their deadlines. The response
 * body still carries the whole message; the trailer repeats it only as far as a header can.
 */
import { status as GrpcStatus } from "@grpc/grpc-js";
import { encodeFinalizeValidationStatus, type FinalizeConfigViolation } from "@grok-tools/proto";

/** The largest trailer sent, in bytes before base64 (grpc-js and nghttp2 take far more; we stay well below 8 KiB). */
export const MAX_STATUS_DETAILS_BYTES = 4096;
/** How much of an echoed value or message a trimmed trailer keeps. */
const ECHO_CHARS = 200;

/** The encoded status with every violation, trimmed if need be, or undefined when even that is too large. */
export function finalizeStatusDetails(message: string, violations: readonly FinalizeConfigViolation[]): Buffer | undefined {
  const whole = encodeFinalizeValidationStatus(GrpcStatus.INVALID_ARGUMENT, message, { violations: [...violations] });
  if (whole.length <= MAX_STATUS_DETAILS_BYTES) return Buffer.from(whole);
  const trimmed = encodeFinalizeValidationStatus(GrpcStatus.INVALID_ARGUMENT, cut(message), {
    violations: violations.map((v) => ({
      ...v,
      toolId: cut(v.toolId),
      ...(v.fieldPath === undefined ? {} : { fieldPath: cut(v.fieldPath) }),
      message: cut(v.message),
      ...(v.expected === undefined ? {} : { expected: cut(v.expected) }),
      ...(v.badValueJson === undefined ? {} : { badValueJson: cut(v.badValueJson) }),
    })),
  });
  return trimmed.length <= MAX_STATUS_DETAILS_BYTES ? Buffer.from(trimmed) : undefined;
}

/** `text` cut to {@link ECHO_CHARS} characters with an ellipsis, never inside a surrogate pair. */
function cut(text: string): string {
  if (text.length <= ECHO_CHARS) return text;
  let end = ECHO_CHARS;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
