/**
 * Text helpers for command output: ANSI stripping, soft wrapping of long lines (content
 * kept, newlines inserted) and the reference's 1024-based size formatting.
 */

/** Wrap width of bash and task output (the reference's `DEFAULT_SOFT_WRAP_WIDTH`). */
export const SOFT_WRAP_WIDTH_CHARS = 2000;

// CSI, OSC (BEL or ST terminated), DCS/SOS/PM/APC strings, other ESC sequences, a lone
// ESC, and C0 controls other than newline and tab.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][\s\S]*?(?:\x1b\\|$)|\x1b[ -/]*[0-~]|\x1b|[\x00-\x08\x0b-\x1f\x7f]/g;
const HAS_CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

/** Removes terminal escape sequences and control characters (keeps `\n` and `\t`). */
export function stripAnsi(text: string): string {
  return HAS_CONTROL.test(text) ? text.replace(ESCAPES, "") : text;
}

/** Inserts a newline every `width` characters of a line longer than `width`. */
export function softWrapLine(line: string, width: number = SOFT_WRAP_WIDTH_CHARS): string {
  if (line.length <= width) return line;
  const chars = Array.from(line);
  if (chars.length <= width) return line;
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i += width) parts.push(chars.slice(i, i + width).join(""));
  return parts.join("\n");
}

/** Soft-wraps every line (lines split like Rust's `str::lines`, so `\r\n` counts as one break). */
export function softWrapLines(text: string, width: number = SOFT_WRAP_WIDTH_CHARS): string {
  if (text === "") return "";
  const pieces = text.split("\n");
  if (text.endsWith("\n")) pieces.pop();
  const wrapped = pieces.map((piece) => softWrapLine(piece.endsWith("\r") ? piece.slice(0, -1) : piece, width)).join("\n");
  return text.endsWith("\n") ? `${wrapped}\n` : wrapped;
}

/** `512 B`, `1.5 KB`, `20.0 MB`: powers of 1024, one decimal above bytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB", "PB"];
  let value = bytes / 1024;
  for (const unit of units) {
    if (value < 1023.95) return `${value.toFixed(1)} ${unit}`;
    value /= 1024;
  }
  return `${value.toFixed(1)} EB`;
}

/** `Nms` under a second, else whole seconds `Ns` (the wait hints' durations). */
export function formatWaitedDuration(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${Math.floor(ms / 1000)}s`;
}
