/**
 * Splits file bytes into display lines the way Codex read_file does: on `\n`, one `\r` dropped, no
 * extra line after a final newline; each line decoded lossily and clipped to 500 bytes.
 */
import { decodeLossy, takeUtf8Bytes } from "../shared/rust-text.js";

/** Longest line shown, in UTF-8 bytes; longer lines are cut at a character boundary. */
export const MAX_LINE_LENGTH_BYTES = 500;

/** One line of a file. */
export interface LineRecord {
  /** 1-based line number. */
  number: number;
  /** The whole line, lossily decoded. */
  raw: string;
  /** The line as shown (clipped). */
  display: string;
}

/** The raw byte lines of a file. */
export function splitByteLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  const cut = (from: number, to: number): Uint8Array => {
    const end = to > from && bytes[to - 1] === 0x0d ? to - 1 : to;
    return bytes.subarray(from, end);
  };
  for (let i = 0; i < bytes.length; i += 1) {
    if (bytes[i] === 0x0a) {
      lines.push(cut(start, i));
      start = i + 1;
    }
  }
  if (start < bytes.length) lines.push(cut(start, bytes.length));
  return lines;
}

/** The lines of a file, decoded and clipped. */
export function collectLines(bytes: Uint8Array): LineRecord[] {
  return splitByteLines(bytes).map((line, index) => {
    const raw = decodeLossy(line);
    return { number: index + 1, raw, display: takeUtf8Bytes(raw, MAX_LINE_LENGTH_BYTES) };
  });
}

/** `L{n}: {text}`. */
export function formatLine(record: Pick<LineRecord, "number" | "display">): string {
  return `L${record.number}: ${record.display}`;
}
