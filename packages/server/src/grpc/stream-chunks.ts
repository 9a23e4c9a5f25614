/**
 * Splits a string into UTF-8 byte chunks of at most `size` bytes that never split a
 * code point (decision D6), with exact offsets.
 */

/** Default `stream_chunk_size`: 1 MiB. */
export const DEFAULT_STREAM_CHUNK_BYTES = 1024 * 1024;
/** Largest accepted `stream_chunk_size`: 4 MiB. */
export const MAX_STREAM_CHUNK_BYTES = 4 * 1024 * 1024;

/** One chunk and its byte offset within the whole field. */
export interface ByteChunk {
  offset: number;
  data: Buffer;
}

/** Chunks of `text` (empty text → no chunks). `size` must be ≥ 4 so any code point fits. */
export function chunkUtf8(text: string, size: number): ByteChunk[] {
  const bytes = Buffer.from(text, "utf8");
  const chunks: ByteChunk[] = [];
  const limit = Math.max(4, size);
  let offset = 0;
  while (offset < bytes.length) {
    let end = Math.min(bytes.length, offset + limit);
    // Step back over continuation bytes (10xxxxxx) so the chunk ends on a code point boundary.
    while (end < bytes.length && end > offset && (bytes[end]! & 0xc0) === 0x80) end--;
    chunks.push({ offset, data: bytes.subarray(offset, end) });
    offset = end;
  }
  return chunks;
}
