/**
 * Encodes `google.rpc.Status` with one `Any` detail for the `grpc-status-details-bin`
 * trailer, so standard gRPC tooling can read finalize violations without our types.
 */
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { FinalizeConfigValidationDetails, protobufPackage } from "@grok-tools/proto";

/** The type URL of the violation details. */
export const VALIDATION_DETAILS_TYPE_URL = `type.googleapis.com/${protobufPackage}.FinalizeConfigValidationDetails`;

/** `google.rpc.Status{code, message, details:[Any(FinalizeConfigValidationDetails)]}` bytes. */
export function encodeValidationStatus(code: number, message: string, details: FinalizeConfigValidationDetails): Uint8Array {
  const any = new BinaryWriter();
  any.uint32(10).string(VALIDATION_DETAILS_TYPE_URL);
  any.uint32(18).bytes(FinalizeConfigValidationDetails.encode(details).finish());
  const status = new BinaryWriter();
  status.uint32(8).int32(code);
  status.uint32(18).string(message);
  status.uint32(26).bytes(any.finish());
  return status.finish();
}
