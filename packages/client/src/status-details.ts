/**
 * Reads the finalize violations a server sends as `google.rpc.Status` details in the
 * `grpc-status-details-bin` trailer, so callers get them as data instead of parsing the message.
 * The codec is @grok-tools/proto's; this module only picks the trailer and forgives a broken one.
 */
import type { Metadata } from "@grpc/grpc-js";
import { STATUS_DETAILS_TRAILER, decodeFinalizeViolations, type FinalizeConfigViolation } from "@grok-tools/proto";

/** The finalize violations carried by `trailers`, or [] when there are none (or they cannot be read). */
export function finalizeViolationsFrom(trailers: Metadata | undefined): FinalizeConfigViolation[] {
  const raw = trailers?.get(STATUS_DETAILS_TRAILER)[0];
  if (!(raw instanceof Uint8Array)) return [];
  try {
    return decodeFinalizeViolations(raw);
  } catch {
    return [];
  }
}
