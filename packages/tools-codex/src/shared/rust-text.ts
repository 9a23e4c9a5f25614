/**
 * String helpers that behave like Rust's `str` methods the reference relies on (`trim`, `lines`,
 * byte-bounded truncation), because JavaScript's `trim` knows a different set of whitespace.
 */

/** Rust's `char::is_whitespace`: the Unicode White_Space property. */
const RUST_WHITESPACE = /^[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]$/u;

/** True when `ch` (one code point) is whitespace for Rust. */
export function isRustWhitespace(ch: string): boolean {
  return RUST_WHITESPACE.test(ch);
}

/** Rust's `str::trim_start`. */
export function trimStartRust(text: string): string {
  let start = 0;
  while (start < text.length && isRustWhitespace(text[start] as string)) start += 1;
  return text.slice(start);
}

/** Rust's `str::trim_end`. */
export function trimEndRust(text: string): string {
  let end = text.length;
  while (end > 0 && isRustWhitespace(text[end - 1] as string)) end -= 1;
  return text.slice(0, end);
}

/** Rust's `str::trim`. */
export function trimRust(text: string): string {
  return trimStartRust(trimEndRust(text));
}

/** Rust's `str::lines`: split on `\n`, drop one `\r` before each `\n`, no empty last line after a final `\n`. */
export function rustLines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts.map((line, index) => (line.endsWith("\r") && (index < parts.length - 1 || text.endsWith("\n")) ? line.slice(0, -1) : line));
}

/** The longest prefix of `text` that fits in `maxBytes` UTF-8 bytes without splitting a character. */
export function takeUtf8Bytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, "utf8");
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** Rust's `String::from_utf8_lossy` (WHATWG decoding replaces invalid sequences the same way). */
export function decodeLossy(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes);
}
