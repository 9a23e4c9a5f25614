/**
 * Reads the finalize violations a server sends as `google.rpc.Status` details in the
 * `grpc-status-details-bin` trailer, so callers get them as data instead of parsing the message.
 */
import { BinaryReader } from "@bufbuild/protobuf/wire";
import type { Metadata } from "@grpc/grpc-js";
import { FinalizeConfigValidationDetails, protobufPackage, type FinalizeConfigViolation } from "@grok-tools/proto";

const DETAILS_TYPE_URL = `type.googleapis.com/${protobufPackage}.FinalizeConfigValidationDetails`;

/** The `Any` messages of an encoded `google.rpc.Status` (field 3). */
function statusDetails(bytes: Uint8Array): { typeUrl: string; value: Uint8Array }[] {
  const reader = new BinaryReader(bytes);
  const details: { typeUrl: string; value: Uint8Array }[] = [];
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field !== 3) {
      reader.skip(wireType);
      continue;
    }
    const any = new BinaryReader(reader.bytes());
    let typeUrl = "";
    let value: Uint8Array = new Uint8Array();
    while (any.pos < any.len) {
      const [anyField, anyWire] = any.tag();
      if (anyField === 1) typeUrl = any.string();
      else if (anyField === 2) value = any.bytes();
      else any.skip(anyWire);
    }
    details.push({ typeUrl, value });
  }
  return details;
}

/** The finalize violations carried by `trailers`, or [] when there are none (or they cannot be read). */
export function finalizeViolationsFrom(trailers: Metadata | undefined): FinalizeConfigViolation[] {
  const raw = trailers?.get("grpc-status-details-bin")[0];
  if (!(raw instanceof Uint8Array)) return [];
  try {
    return statusDetails(raw)
      .filter((d) => d.typeUrl === DETAILS_TYPE_URL)
      .flatMap((d) => FinalizeConfigValidationDetails.decode(d.value).violations);
  } catch {
    return [];
  }
}
