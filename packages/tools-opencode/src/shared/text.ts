/**
 * Text helpers of the OpenCode tools: ANSI stripping and soft wrapping of shell output (the
 * reference's `BashOutput::make_output_for_prompt`), Rust-style line splitting, UTF-8 clipping.
 */

/** Width at which long output lines are soft-wrapped. */
export const SOFT_WRAP_WIDTH_CHARS = 2000;

const HAS_CONTROL = /[\u001b\u009b]/;
// CSI sequences, OSC sequences (BEL or ST terminated) and two-character escapes.
const ESCAPES = /[\u001b\u009b][[\]()#;?]*(?:(?:(?:[a-zA-Z\d]*(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;

/** The text without ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return HAS_CONTROL.test(text) ? text.replace(ESCAPES, "") : text;
}

/** Inserts a newline every `width` characters of a line longer than `width`. */
function softWrapLine(line: string, width: number): string {
  if (line.length <= width) return line;
  const chars = Array.from(line);
  if (chars.length <= width) return line;
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i += width) parts.push(chars.slice(i, i + width).join(""));
  return parts.join("\n");
}

/** Soft-wraps every line (`\r\n` counts as one break, as Rust's `str::lines`). */
export function softWrapLines(text: string, width: number = SOFT_WRAP_WIDTH_CHARS): string {
  if (text === "") return "";
  const pieces = text.split("\n");
  if (text.endsWith("\n")) pieces.pop();
  const wrapped = pieces.map((piece) => softWrapLine(piece.endsWith("\r") ? piece.slice(0, -1) : piece, width)).join("\n");
  return text.endsWith("\n") ? `${wrapped}\n` : wrapped;
}

/** Rust's `str::lines()`: split on `\n`, drop one `\r` before it, no final empty piece. */
export function rustLines(text: string): string[] {
  if (text === "") return [];
  const pieces = text.split("\n");
  if (text.endsWith("\n")) pieces.pop();
  return pieces.map((piece) => (piece.endsWith("\r") ? piece.slice(0, -1) : piece));
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes that ends on a character boundary. */
export function clipUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return text;
  let bytes = 0;
  let out = "";
  for (const ch of text) {
    const size = Buffer.byteLength(ch, "utf8");
    if (bytes + size > maxBytes) break;
    bytes += size;
    out += ch;
  }
  return out;
}
