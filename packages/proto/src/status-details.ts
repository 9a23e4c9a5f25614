/**
 * Rich gRPC errors: `google.rpc.Status` with typed `Any` details in the `grpc-status-details-bin`
 * trailer, encoded and decoded with the generated messages. Transport-free: callers set or read the
 * trailer on their own gRPC library's metadata.
 */
import { Any } from "./gen/google/protobuf/any.js";
import { Status } from "./gen/google/rpc/status.js";
import { FinalizeConfigValidationDetails, protobufPackage, type FinalizeConfigViolation } from "./gen/grok-tools.js";

/** The binary trailer that carries an encoded `google.rpc.Status`. */
export const STATUS_DETAILS_TRAILER = "grpc-status-details-bin";

/** The `Any.type_url` of {@link FinalizeConfigValidationDetails}. */
export const FINALIZE_VALIDATION_DETAILS_TYPE_URL = `type.googleapis.com/${protobufPackage}.FinalizeConfigValidationDetails`;

/** `google.rpc.Status` bytes for a rejected finalize: the code, the message and the violations as one detail. */
export function encodeFinalizeValidationStatus(code: number, message: string, details: FinalizeConfigValidationDetails): Uint8Array {
  const detail: Any = { typeUrl: FINALIZE_VALIDATION_DETAILS_TYPE_URL, value: Buffer.from(FinalizeConfigValidationDetails.encode(details).finish()) };
  return Status.encode({ code, message, details: [detail] }).finish();
}

/** The encoded `google.rpc.Status` of `bytes`; throws when they are not one. */
export function decodeRpcStatus(bytes: Uint8Array): Status {
  return Status.decode(bytes);
}

/**
 * The finalize violations of an encoded `google.rpc.Status`: those of every
 * FinalizeConfigValidationDetails detail, in order; details of other types are skipped. Throws
 * when the bytes are not a valid Status.
 */
export function decodeFinalizeViolations(bytes: Uint8Array): FinalizeConfigViolation[] {
  return decodeRpcStatus(bytes)
    .details.filter((detail) => detail.typeUrl === FINALIZE_VALIDATION_DETAILS_TYPE_URL)
    .flatMap((detail) => FinalizeConfigValidationDetails.decode(detail.value).violations);
}
