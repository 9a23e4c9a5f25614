/**
 * The wire encoding of ExecuteToolResponse and ToolStreamChunk: byte for byte what the generated
 * encoder writes, without its intermediate buffers. It does not decide what a response holds (to-proto.ts).
 */
import { ExecuteToolResponse, StreamDataKind, ToolStreamChunk, type ExecutionMetadata, type StreamDataChunk } from "@grok-tools/proto";

/**
 * One writer for the responses the generated encoder writes (errors, and a success it must take, see
 * encodeSuccess), reused: a fresh one starts at 128 bytes and doubles its way to the message's size,
 * each step a new zeroed buffer (issue #18: a few microseconds of a cheap call). Encoding is
 * synchronous, so calls never share it; `finish()` copies the bytes out and rewinds it. A writer
 * grown past SHARED_WRITER_MAX_BYTES (a large error detail) is dropped, not kept.
 */
type Writer = ReturnType<typeof ExecuteToolResponse.encode>;
const SHARED_WRITER_MAX_BYTES = 64 * 1024;
let sharedWriter: Writer | undefined;

/** `response` through the generated encoder with the shared writer. */
function encodeWithSharedWriter(response: ExecuteToolResponse): Uint8Array {
  // An empty message writes nothing: encoding one gives a fresh, empty writer of the generated type.
  const writer = sharedWriter ?? ExecuteToolResponse.encode(EMPTY_RESPONSE);
  // Out of the slot while in use: an encoder that throws half-way leaves its writer behind, not shared.
  sharedWriter = undefined;
  const bytes = ExecuteToolResponse.encode(response, writer).finish();
  if (bytes.byteLength <= SHARED_WRITER_MAX_BYTES) sharedWriter = writer;
  return bytes;
}
const EMPTY_RESPONSE = ExecuteToolResponse.fromPartial({});

/** Tags (field number << 3 | wire type) of the fields written here: 0 is a varint, 2 length-delimited. */
const FIELD_1_BYTES_TAG = 10;
const FIELD_2_BYTES_TAG = 18;
const FIELD_3_BYTES_TAG = 26;
const FIELD_4_BYTES_TAG = 34;
const FIELD_5_BYTES_TAG = 42;
const FIELD_1_VARINT_TAG = 8;
const FIELD_2_VARINT_TAG = 16;
const FIELD_3_VARINT_TAG = 24;

/**
 * The gRPC serializer of ExecuteTool (`responseSerialize`). A success, the answer of nearly every
 * call, is measured first (its long texts by writing them, see WRITE_FIRST_MIN_UNITS) and written
 * once into a buffer of its exact size. Issue #18: for a
 * read_file of 2 000 lines (about 300 KB on the wire) the generated path grew its buffer by
 * doubling to three bytes per UTF-16 unit (about 1 MB, zero-filled, copied at each step), then
 * sliced it and copied the slice again into a Buffer, which on a VM whose page faults are slow cost
 * more than the tool itself; for a cheap call (todo_write) its text encodings, nested writers and
 * joins were twice the time of writing the bytes here (2.2-2.6 against 0.8-1.1 µs in process).
 * Errors and anything encodeSuccess does not cover go through the generated encoder.
 */
export function serializeExecuteToolResponse(response: ExecuteToolResponse): Buffer {
  const result = response.result;
  if (result?.$case === "success") {
    const exact = encodeSuccess(response.callId, result.value.outputJson, result.value.promptText, response.metadata);
    if (exact) return exact;
  }
  const bytes = encodeWithSharedWriter(response);
  // finish() returns a fresh copy: wrap it rather than copy it again (what Buffer.from(bytes) does).
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A success response in the generated encoder's field order (1 call_id, 2 success with its two
 * texts, 4 metadata; in the metadata 1 to 5), proto3 zero values left out. Undefined for a number
 * the varint writer here does not cover (negative, fractional, beyond 2^53: the generated encoder
 * takes those), or if a text wrote other than its measured size.
 */
function encodeSuccess(callId: string, outputJson: string, promptText: string, metadata: ExecutionMetadata | undefined): Buffer | undefined {
  if (metadata && !(isVarint(metadata.durationMs) && isVarint(metadata.estimatedTokens) && metadata.estimatedTokens <= INT32_MAX)) return undefined;
  const callIdBytes = utf8Size(callId);
  const staging = stagingBuffer(stagedRoom(outputJson) + stagedRoom(promptText));
  const output = sizeText(outputJson, staging, 0);
  const prompt = sizeText(promptText, staging, output.staged ? output.bytes : 0);
  const outputBytes = output.bytes;
  const promptBytes = prompt.bytes;
  const successBytes = textFieldSize(outputBytes) + textFieldSize(promptBytes);
  let total = textFieldSize(callIdBytes) + 1 + varintSize(successBytes) + successBytes;
  let toolVersionBytes = 0;
  let contractVersionBytes = 0;
  let metadataBytes = 0;
  if (metadata) {
    toolVersionBytes = utf8Size(metadata.toolVersion);
    contractVersionBytes = utf8Size(metadata.contractVersion);
    metadataBytes =
      varintFieldSize(metadata.durationMs) +
      varintFieldSize(metadata.estimatedTokens) +
      (metadata.truncated ? 2 : 0) +
      textFieldSize(toolVersionBytes) +
      textFieldSize(contractVersionBytes);
    total += 1 + varintSize(metadataBytes) + metadataBytes;
  }
  const out = Buffer.allocUnsafe(total);
  let at = writeText(out, 0, FIELD_1_BYTES_TAG, callId, callIdBytes);
  out[at++] = FIELD_2_BYTES_TAG;
  at = writeVarint(out, at, successBytes);
  at = writeSizedText(out, at, FIELD_2_BYTES_TAG, outputJson, output);
  at = writeSizedText(out, at, FIELD_3_BYTES_TAG, promptText, prompt);
  if (metadata) {
    out[at++] = FIELD_4_BYTES_TAG;
    at = writeVarint(out, at, metadataBytes);
    at = writeVarintField(out, at, FIELD_1_VARINT_TAG, metadata.durationMs);
    at = writeVarintField(out, at, FIELD_2_VARINT_TAG, metadata.estimatedTokens);
    if (metadata.truncated) {
      out[at++] = FIELD_3_VARINT_TAG;
      out[at++] = 1;
    }
    at = writeText(out, at, FIELD_4_BYTES_TAG, metadata.toolVersion, toolVersionBytes);
    at = writeText(out, at, FIELD_5_BYTES_TAG, metadata.contractVersion, contractVersionBytes);
  }
  return at === total ? out : undefined;
}

/**
 * Texts of at least this many UTF-16 units are written before they are measured, into a staging
 * buffer whose bytes are then copied into the response. For a text of two-byte characters (a read's
 * numbered lines hold `→`) V8 takes about as long to measure its UTF-8 size as to write it, where
 * copying the written bytes takes a tenth of that (issue #18: 160-220 µs to measure the 225 K
 * characters of a 2 000-line read's output_json).
 */
const WRITE_FIRST_MIN_UNITS = 16 * 1024;
/** The most staging kept between calls (three bytes per UTF-16 unit); texts that need more are measured. */
const STAGING_MAX_BYTES = 1024 * 1024;
let sharedStaging: Buffer | undefined;

/** The staging room a text takes: its most UTF-8 bytes when it is written first, else none. */
function stagedRoom(text: string): number {
  return text.length >= WRITE_FIRST_MIN_UNITS ? 3 * text.length : 0;
}

/**
 * The shared staging buffer with at least `bytes` of room; undefined for none or more than
 * STAGING_MAX_BYTES. Encoding is synchronous and the bytes are copied out before it returns, so
 * calls never share what it holds.
 */
function stagingBuffer(bytes: number): Buffer | undefined {
  if (bytes === 0 || bytes > STAGING_MAX_BYTES) return undefined;
  if (sharedStaging === undefined || sharedStaging.length < bytes) sharedStaging = Buffer.allocUnsafeSlow(STAGING_MAX_BYTES);
  return sharedStaging;
}

/** A text's UTF-8 size and, when it was written first, its bytes in the staging buffer. */
interface SizedText {
  bytes: number;
  staged: Buffer | undefined;
}

/** Sizes `text`, writing it into `staging` at `at` first when it is long enough and there is staging. */
function sizeText(text: string, staging: Buffer | undefined, at: number): SizedText {
  if (staging === undefined || text.length < WRITE_FIRST_MIN_UNITS) return { bytes: utf8Size(text), staged: undefined };
  const bytes = staging.write(text, at, "utf8");
  return { bytes, staged: staging.subarray(at, at + bytes) };
}

/** writeText for a sized text: its staged bytes copied, or the text written. */
function writeSizedText(out: Buffer, at: number, tag: number, text: string, sized: SizedText): number {
  if (sized.staged === undefined) return writeText(out, at, tag, text, sized.bytes);
  out[at++] = tag;
  at = writeVarint(out, at, sized.bytes);
  return at + sized.staged.copy(out, at);
}

/** The largest int32 (estimated_tokens): the generated encoder refuses a larger one, and so does this one, through it. */
const INT32_MAX = 2 ** 31 - 1;

/** A number written here as a varint: a safe non-negative integer (uint64 and int32 agree on those). */
function isVarint(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

/** The UTF-8 size of a text as Buffer.write writes it (a lone surrogate as U+FFFD, 3 bytes). */
function utf8Size(text: string): number {
  return text === "" ? 0 : Buffer.byteLength(text, "utf8");
}

/** Tag, length and bytes of a text field of `bytes` bytes; nothing for an empty one. */
function textFieldSize(bytes: number): number {
  return bytes === 0 ? 0 : 1 + varintSize(bytes) + bytes;
}

function varintFieldSize(value: number): number {
  return value === 0 ? 0 : 1 + varintSize(value);
}

/**
 * Writes a text field measured at `bytes` bytes (nothing when empty); a text that writes another
 * size leaves `at` where the write ended, so the caller's final size check fails.
 */
function writeText(out: Buffer, at: number, tag: number, text: string, bytes: number): number {
  if (bytes === 0) return at;
  out[at++] = tag;
  at = writeVarint(out, at, bytes);
  return at + out.write(text, at, bytes, "utf8");
}

function writeVarintField(out: Buffer, at: number, tag: number, value: number): number {
  if (value === 0) return at;
  out[at++] = tag;
  return writeVarint(out, at, value);
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

/**
 * The gRPC serializer of ExecuteToolStream's chunks (`responseSerialize`). A 64 MiB stream of live
 * output is a thousand 64 KiB data chunks: the generated encoder copied each chunk's bytes into its
 * growing buffer, then joined its pieces into a new array, and the generated serializer copied that
 * once more into a Buffer (issue #18: 15% of the server's busy time and much of its garbage in the
 * 64 MiB case). A large data chunk is now measured and written once; anything else goes through the
 * generated encoder, whose fresh bytes are wrapped, not copied.
 */
export function serializeToolStreamChunk(chunk: ToolStreamChunk | EncodedStreamChunk): Buffer {
  if (chunk instanceof EncodedStreamChunk) return chunk.bytes;
  const payload = chunk.chunk;
  if (payload?.$case === "data" && payload.value.data.length >= EXACT_SIZE_CHUNK_MIN_BYTES) {
    const exact = encodeLargeDataChunk(chunk.callId, payload.value);
    if (exact) return exact;
  }
  const bytes = ToolStreamChunk.encode(chunk).finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A ToolStreamChunk encoded ahead of grpc-js: what {@link serializeToolStreamChunk} sends as it is.
 * A message handed to a grpc-js stream may wait in the stream's own buffer before it is serialized;
 * encoded first, its bytes are a copy made at once, so the data it came from may change meanwhile.
 */
export class EncodedStreamChunk {
  constructor(readonly bytes: Buffer) {}
}

/** `chunk` encoded now (its bytes never share memory with its data). */
export function encodeToolStreamChunk(chunk: ToolStreamChunk): EncodedStreamChunk {
  return new EncodedStreamChunk(serializeToolStreamChunk(chunk));
}

/**
 * A live-output data chunk (kind unspecified) encoded now, with `data`'s copy inside it: `bytes` is
 * that copy, a view of the encoded message. Undefined below {@link EXACT_SIZE_CHUNK_MIN_BYTES} or
 * where the exact writer does not apply (the generated encoder's layout is not known here).
 */
export function encodeLiveDataChunk(callId: string, data: Buffer, offset: number): { chunk: EncodedStreamChunk; bytes: Buffer } | undefined {
  if (data.byteLength < EXACT_SIZE_CHUNK_MIN_BYTES) return undefined;
  const encoded = encodeLargeDataChunk(callId, { kind: StreamDataKind.STREAM_DATA_KIND_UNSPECIFIED, data, offset });
  if (!encoded) return undefined;
  // The data is the last field but the offset (see encodeLargeDataChunk).
  const end = encoded.length - varintFieldSize(offset);
  return { chunk: new EncodedStreamChunk(encoded), bytes: encoded.subarray(end - data.byteLength, end) };
}

/**
 * Field 1 (call_id), then field 2 (the data chunk: kind, data, offset in field order, zero values
 * left out as proto3 does), with the same field writers as {@link encodeSuccess}. Undefined for a
 * kind or offset the varint writer here does not cover (negative, fractional, beyond 2^53), which
 * the generated encoder takes, or if the call id wrote other than its measured size.
 */
function encodeLargeDataChunk(callId: string, chunk: StreamDataChunk): Buffer | undefined {
  const { kind, data, offset } = chunk;
  if (!isVarint(kind) || !isVarint(offset)) return undefined;
  const callIdBytes = utf8Size(callId);
  const size = data.byteLength;
  const inner = varintFieldSize(kind) + 1 + varintSize(size) + size + varintFieldSize(offset);
  const total = textFieldSize(callIdBytes) + 1 + varintSize(inner) + inner;
  const out = Buffer.allocUnsafe(total);
  let at = writeText(out, 0, FIELD_1_BYTES_TAG, callId, callIdBytes);
  out[at++] = FIELD_2_BYTES_TAG;
  at = writeVarint(out, at, inner);
  at = writeVarintField(out, at, FIELD_1_VARINT_TAG, kind);
  out[at++] = FIELD_2_BYTES_TAG;
  at = writeVarint(out, at, size);
  out.set(data, at);
  at += size;
  at = writeVarintField(out, at, FIELD_3_VARINT_TAG, offset);
  return at === total ? out : undefined;
}
