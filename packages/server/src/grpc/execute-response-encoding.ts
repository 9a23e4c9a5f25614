/**
 * The wire encoding of ExecuteToolResponse: byte for byte what the generated encoder writes, without
 * its intermediate buffers for large results. It does not decide what a response holds (to-proto.ts).
 */
import { ExecuteToolResponse, ToolStreamChunk, type StreamDataChunk } from "@grok-tools/proto";

/**
 * Results with at least this many UTF-16 units (output_json + prompt_text) are encoded into one buffer
 * of the exact size. Below it the generated encoder's copies are a few small allocations.
 */
export const EXACT_SIZE_ENCODING_MIN_CHARS = 16 * 1024;

/**
 * One writer for the small responses, reused: a fresh one starts at 128 bytes and doubles its way to
 * the message's size, each step a new zeroed buffer (issue #18: a few microseconds of a cheap call).
 * Encoding is synchronous, so calls never share it; `finish()` copies the bytes out and rewinds it.
 * A writer grown past SHARED_WRITER_MAX_BYTES (a large error detail) is dropped, not kept.
 */
type Writer = ReturnType<typeof ExecuteToolResponse.encode>;
const SHARED_WRITER_MAX_BYTES = 64 * 1024;
let sharedWriter: Writer | undefined;

/** `response` through the generated encoder with the shared writer. */
function encodeSmall(response: ExecuteToolResponse): Uint8Array {
  // An empty message writes nothing: encoding one gives a fresh, empty writer of the generated type.
  const writer = sharedWriter ?? ExecuteToolResponse.encode(EMPTY_RESPONSE);
  // Out of the slot while in use: an encoder that throws half-way leaves its writer behind, not shared.
  sharedWriter = undefined;
  const bytes = ExecuteToolResponse.encode(response, writer).finish();
  if (bytes.byteLength <= SHARED_WRITER_MAX_BYTES) sharedWriter = writer;
  return bytes;
}
const EMPTY_RESPONSE = ExecuteToolResponse.fromPartial({});

/** Tag of ExecuteToolResponse.success (field 2) and of ToolSuccess.output_json (field 2), length-delimited. */
const FIELD_2_TAG = 18;
/** Tag of ToolSuccess.prompt_text (field 3), length-delimited. */
const FIELD_3_TAG = 26;

/**
 * The gRPC serializer of ExecuteTool (`responseSerialize`). Issue #18: for a read_file of 2 000 lines
 * (about 300 KB on the wire) the generated path grew its buffer by doubling to three bytes per UTF-16
 * unit (about 1 MB, zero-filled, copied at each step), then sliced it and copied the slice again into
 * a Buffer: fresh memory of several times the message, which on a VM whose page faults are slow cost
 * more than the tool itself. Here the sizes are measured first and the bytes written once.
 */
export function serializeExecuteToolResponse(response: ExecuteToolResponse): Buffer {
  const result = response.result;
  if (result?.$case === "success" && result.value.outputJson.length + result.value.promptText.length >= EXACT_SIZE_ENCODING_MIN_CHARS) {
    const exact = encodeLargeSuccess(response, result.value.outputJson, result.value.promptText);
    if (exact) return exact;
  }
  const bytes = encodeSmall(response);
  // finish() returns a fresh copy: wrap it rather than copy it again (what Buffer.from(bytes) does).
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Fields 1 (call_id) and 4 (metadata) come from the generated encoder (small, and their encoding
 * stays its own); field 2 (the success with its two texts) is written here, in field order 1, 2, 4
 * as the generated encoder writes them. Undefined if a text wrote other than its measured size.
 */
function encodeLargeSuccess(response: ExecuteToolResponse, outputJson: string, promptText: string): Buffer | undefined {
  const head = ExecuteToolResponse.encode({ callId: response.callId }).finish();
  const tail = response.metadata === undefined ? undefined : ExecuteToolResponse.encode({ callId: "", metadata: response.metadata }).finish();
  // proto3: an empty string field is not written.
  const outputBytes = outputJson === "" ? 0 : Buffer.byteLength(outputJson, "utf8");
  const promptBytes = promptText === "" ? 0 : Buffer.byteLength(promptText, "utf8");
  const successBytes =
    (outputJson === "" ? 0 : 1 + varintSize(outputBytes) + outputBytes) + (promptText === "" ? 0 : 1 + varintSize(promptBytes) + promptBytes);
  const total = head.byteLength + 1 + varintSize(successBytes) + successBytes + (tail?.byteLength ?? 0);
  const out = Buffer.allocUnsafe(total);
  out.set(head, 0);
  let at = head.byteLength;
  out[at++] = FIELD_2_TAG;
  at = writeVarint(out, at, successBytes);
  if (outputJson !== "") {
    out[at++] = FIELD_2_TAG;
    at = writeVarint(out, at, outputBytes);
    if (out.write(outputJson, at, outputBytes, "utf8") !== outputBytes) return undefined;
    at += outputBytes;
  }
  if (promptText !== "") {
    out[at++] = FIELD_3_TAG;
    at = writeVarint(out, at, promptBytes);
    if (out.write(promptText, at, promptBytes, "utf8") !== promptBytes) return undefined;
    at += promptBytes;
  }
  if (tail) out.set(tail, at);
  return out;
}

function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 0x80);
    size++;
  }
  return size;
}

function writeVarint(out: Buffer, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  out[at++] = value;
  return at;
}

/** Data chunks carrying at least this many bytes are encoded into one buffer of the exact size. */
export const EXACT_SIZE_CHUNK_MIN_BYTES = 4 * 1024;

/** Tags of StreamDataChunk.kind (field 1, varint) and StreamDataChunk.offset (field 3, varint). */
const FIELD_1_VARINT_TAG = 8;
const FIELD_3_VARINT_TAG = 24;

/**
 * The gRPC serializer of ExecuteToolStream's chunks (`responseSerialize`). A 64 MiB stream of live
 * output is a thousand 64 KiB data chunks: the generated encoder copied each chunk's bytes into its
 * growing buffer, then joined its pieces into a new array, and the generated serializer copied that
 * once more into a Buffer (issue #18: 15% of the server's busy time and much of its garbage in the
 * 64 MiB case). A large data chunk is now measured and written once; anything else goes through the
 * generated encoder, whose fresh bytes are wrapped, not copied.
 */
export function serializeToolStreamChunk(chunk: ToolStreamChunk): Buffer {
  const payload = chunk.chunk;
  if (payload?.$case === "data" && payload.value.data.length >= EXACT_SIZE_CHUNK_MIN_BYTES) {
    const exact = encodeLargeDataChunk(chunk.callId, payload.value);
    if (exact) return exact;
  }
  const bytes = ToolStreamChunk.encode(chunk).finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Field 1 (call_id) from the generated encoder, then field 2 (the data chunk: kind, data, offset in
 * field order, zero values left out as proto3 does) written here. Undefined for a kind or offset the
 * varint writer here does not cover (negative, fractional, beyond 2^53), which the generated encoder takes.
 */
function encodeLargeDataChunk(callId: string, chunk: StreamDataChunk): Buffer | undefined {
  const { kind, data, offset } = chunk;
  if (!Number.isSafeInteger(kind) || kind < 0 || !Number.isSafeInteger(offset) || offset < 0) return undefined;
  const head = callId === "" ? undefined : ToolStreamChunk.encode({ callId, chunk: undefined }).finish();
  const size = data.byteLength;
  const inner = (kind === 0 ? 0 : 1 + varintSize(kind)) + 1 + varintSize(size) + size + (offset === 0 ? 0 : 1 + varintSize(offset));
  const out = Buffer.allocUnsafe((head?.byteLength ?? 0) + 1 + varintSize(inner) + inner);
  let at = 0;
  if (head) {
    out.set(head, 0);
    at = head.byteLength;
  }
  out[at++] = FIELD_2_TAG;
  at = writeVarint(out, at, inner);
  if (kind !== 0) {
    out[at++] = FIELD_1_VARINT_TAG;
    at = writeVarint(out, at, kind);
  }
  out[at++] = FIELD_2_TAG;
  at = writeVarint(out, at, size);
  out.set(data, at);
  at += size;
  if (offset !== 0) {
    out[at++] = FIELD_3_VARINT_TAG;
    writeVarint(out, at, offset);
  }
  return out;
}
