/**
 * Chunking of ExecuteToolStream payloads (spec §8.1, decision D6): UTF-8 bytes cut into chunks
 * of at most the requested size, never inside a code point, with exact byte offsets. Pure;
 * the server sends the chunks.
 */

/** Default `stream_chunk_size`: 1 MiB. */
export const DEFAULT_STREAM_CHUNK_SIZE_BYTES = 1_048_576;
/** Largest accepted `stream_chunk_size`: 4 MiB. */
export const MAX_STREAM_CHUNK_SIZE_BYTES = 4_194_304;
/** A code point is at most 4 bytes, so smaller chunks could not always make progress. */
export const MIN_STREAM_CHUNK_SIZE_BYTES = 4;

/** One chunk: its byte offset in the whole field and its bytes. */
export interface Utf8Chunk {
  offset: number;
  data: Uint8Array;
}

/**
 * The chunk size to use for a requested `stream_chunk_size`: absent or 0 → the default; over
 * 4 MiB → an error message (the server answers INVALID_ARGUMENT); below 4 bytes → 4.
 */
export function validateStreamChunkSize(requested: number | undefined): { ok: true; size: number } | { ok: false; message: string } {
  if (requested === undefined || requested === 0) return { ok: true, size: DEFAULT_STREAM_CHUNK_SIZE_BYTES };
  if (!Number.isInteger(requested) || requested < 0) return { ok: false, message: `stream_chunk_size must be a non-negative integer, got ${requested}` };
  if (requested > MAX_STREAM_CHUNK_SIZE_BYTES) {
    return { ok: false, message: `stream_chunk_size ${requested} exceeds the maximum of ${MAX_STREAM_CHUNK_SIZE_BYTES} bytes (4 MiB)` };
  }
  return { ok: true, size: Math.max(requested, MIN_STREAM_CHUNK_SIZE_BYTES) };
}

/**
 * Splits the UTF-8 encoding of `text` into chunks of at most `chunkSize` bytes (at least 4),
 * each ending on a code point boundary. An empty text gives no chunks.
 */
export function chunkUtf8(text: string | Uint8Array, chunkSize: number): Utf8Chunk[] {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const size = Math.max(MIN_STREAM_CHUNK_SIZE_BYTES, Math.floor(chunkSize));
  const chunks: Utf8Chunk[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    let end = Math.min(offset + size, bytes.length);
    // Step back over continuation bytes (10xxxxxx) so the next chunk starts a code point.
    while (end < bytes.length && end > offset && (bytes[end]! & 0xc0) === 0x80) end--;
    if (end === offset) end = Math.min(offset + size, bytes.length);
    chunks.push({ offset, data: bytes.subarray(offset, end) });
    offset = end;
  }
  return chunks;
}
