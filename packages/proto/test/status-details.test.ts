// The status-details codec: what the server encodes, the client decodes, and any gRPC library that
// knows google.rpc.Status reads the same fields (checked against a hand-built Status here).
import { describe, expect, it } from "@jest/globals";
import { BinaryReader, BinaryWriter } from "@bufbuild/protobuf/wire";
import {
  FINALIZE_VALIDATION_DETAILS_TYPE_URL,
  FinalizeConfigValidationDetails,
  RpcStatus,
  STATUS_DETAILS_TRAILER,
  decodeFinalizeViolations,
  decodeRpcStatus,
  encodeFinalizeValidationStatus,
  type FinalizeConfigViolation,
} from "@grok-tools/proto";

const violations: FinalizeConfigViolation[] = [
  {
    entryIndex: 0,
    toolId: "GrokBuild:read_file",
    fieldPath: "params.max_lines",
    message: "must be a positive integer",
    expected: "an integer >= 1",
    badValueJson: "-3",
    category: "params",
  },
  { entryIndex: 1, toolId: "GrokBuild:grep", fieldPath: "name_override", message: "two tools named grep", badValueJson: '"grep"', category: "name" },
];

describe("google.rpc.Status details", () => {
  it("round-trips finalize violations through the encoded Status", () => {
    const bytes = encodeFinalizeValidationStatus(3, "Invalid tool configuration", { violations });
    const status = decodeRpcStatus(bytes);
    expect(status.code).toBe(3);
    expect(status.message).toBe("Invalid tool configuration");
    expect(status.details.map((d) => d.typeUrl)).toEqual(["type.googleapis.com/xai.grok.tools.v1.FinalizeConfigValidationDetails"]);
    expect(decodeFinalizeViolations(bytes)).toEqual(violations);
  });

  it("round-trips an empty violation list and keeps unicode messages", () => {
    const bytes = encodeFinalizeValidationStatus(3, "règle ✗", { violations: [] });
    expect(decodeRpcStatus(bytes).message).toBe("règle ✗");
    expect(decodeFinalizeViolations(bytes)).toEqual([]);
  });

  it("writes the standard google.rpc.Status layout: code (1), message (2), Any{type_url (1), value (2)} (3)", () => {
    const bytes = encodeFinalizeValidationStatus(9, "m", { violations: violations.slice(0, 1) });
    const reader = new BinaryReader(bytes);
    expect(reader.tag()).toEqual([1, 0]);
    expect(reader.int32()).toBe(9);
    expect(reader.tag()).toEqual([2, 2]);
    expect(reader.string()).toBe("m");
    expect(reader.tag()).toEqual([3, 2]);
    const any = new BinaryReader(reader.bytes());
    expect(any.tag()).toEqual([1, 2]);
    expect(any.string()).toBe(FINALIZE_VALIDATION_DETAILS_TYPE_URL);
    expect(any.tag()).toEqual([2, 2]);
    expect(FinalizeConfigValidationDetails.decode(any.bytes()).violations).toEqual(violations.slice(0, 1));
    expect(reader.pos).toBe(reader.len);
  });

  it("reads a Status written by another encoder, skipping details of other types and unknown fields", () => {
    const detail = (typeUrl: string, value: Uint8Array) => new BinaryWriter().uint32(10).string(typeUrl).uint32(18).bytes(value).finish();
    const ours = FinalizeConfigValidationDetails.encode({ violations }).finish();
    const bytes = new BinaryWriter()
      .uint32(8)
      .int32(3)
      .uint32(18)
      .string("bad config")
      .uint32(26)
      .bytes(detail("type.googleapis.com/google.rpc.BadRequest", new Uint8Array([10, 0])))
      .uint32(26)
      .bytes(detail(FINALIZE_VALIDATION_DETAILS_TYPE_URL, ours))
      .uint32(80)
      .int32(7) // field 10, unknown to google.rpc.Status
      .finish();
    expect(decodeFinalizeViolations(bytes)).toEqual(violations);
    expect(RpcStatus.decode(bytes).details).toHaveLength(2);
  });

  it("throws on bytes that are not a Status, so callers can decide what a broken trailer means", () => {
    expect(() => decodeFinalizeViolations(new Uint8Array([0x1a, 0x05, 0x01]))).toThrow();
  });

  it("names the trailer gRPC defines for rich errors", () => {
    expect(STATUS_DETAILS_TRAILER).toBe("grpc-status-details-bin");
  });
});
