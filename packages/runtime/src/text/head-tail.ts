/**
 * Head/tail truncation of text: keep the start and the end, drop the middle, and say so.
 * Counts UTF-16-safe code points, never splitting a surrogate pair.
 */

/** The marker the reference puts between head and tail. */
export const TRUNCATION_MARKER = "\n\n... (output truncated) ...\n\n";

/** Result of {@link truncateHeadTail}. */
export interface HeadTailResult {
  text: string;
  truncated: boolean;
  /** Characters kept from the original. */
  shownChars: number;
  totalChars: number;
}

/**
 * Keeps the first ⌊limit/2⌋ and last ⌊limit/2⌋ characters (code points) of `text` when it has
 * more than `limit`, joined by `marker`.
 */
export function truncateHeadTail(text: string, limit: number, marker: string = TRUNCATION_MARKER): HeadTailResult {
  const chars = Array.from(text);
  if (chars.length <= limit) return { text, truncated: false, shownChars: chars.length, totalChars: chars.length };
  const half = Math.floor(limit / 2);
  const head = chars.slice(0, half).join("");
  const tail = half > 0 ? chars.slice(chars.length - half).join("") : "";
  return { text: head + marker + tail, truncated: true, shownChars: half * 2, totalChars: chars.length };
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a code point. */
export function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, "utf8");
  // A negative budget is no budget: nothing fits, but an empty text was not cut.
  const budget = Math.max(0, maxBytes);
  if (bytes.length <= budget) return { text, truncated: false };
  let end = budget;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString("utf8"), truncated: true };
}
