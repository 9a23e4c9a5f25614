/**
 * The line window of a read (spec §4.2 "Window" and "Formatting"): start line from the offset
 * (negative counts from the end), `N→` anchors on the first line and every tenth, the raw slice.
 */
import { tryExtractBase64Images } from "./inline-images.js";
import type { ExtractedImage } from "./schema.js";

/** The formatted window. */
export interface ExtractedContent {
  content: string;
  rawOutput: string;
  extractedImages: ExtractedImage[];
}

/** 1-based start line: absent/0 → 1; positive as given; negative counts `split('\n')` fields from the end. */
export function resolveReadStartLine(fileContent: string, offset: number | undefined): number {
  const raw = offset ?? 1;
  if (raw === 0) return 1;
  if (raw > 0) return raw;
  let fields = fileContent.split("\n").length;
  if (fileContent !== "" && !fileContent.endsWith("\n")) fields += 1;
  return Math.max(fields + raw + 1, 1);
}

/**
 * Where the line starting at `pos` ends without its `\n`, and without a `\r` only when that `\r`
 * came right before the `\n`; `newline` is the index of its `\n` (-1 for a last line without one).
 * One slice per line then (issue #18: a slice of the piece and another of its body made two strings
 * per line of a 2 000-line read).
 */
function lineBodyEnd(text: string, pos: number, newline: number): number {
  if (newline === -1) return text.length;
  return newline > pos && text.charCodeAt(newline - 1) === CARRIAGE_RETURN ? newline - 1 : newline;
}

const CARRIAGE_RETURN = 13;

/** Formats the window `offset`/`limit` of `fileContent` (which has `totalLines` lines). */
export function extractFileContentLines(fileContent: string, offset: number | undefined, limit: number | undefined, totalLines: number): ExtractedContent {
  const parts: string[] = [];
  let firstLine: number | undefined;
  let start = 0;
  let end = 0;
  const images: ExtractedImage[] = [];
  const skip = resolveReadStartLine(fileContent, offset) - 1;
  const take = limit ?? Number.MAX_SAFE_INTEGER;
  const hasTrailingEmpty = fileContent !== "" && fileContent.endsWith("\n");
  if (fileContent === "" && totalLines > 0 && skip === 0 && take > 0) {
    parts.push("1→");
    firstLine = 1;
  }
  // Inline data URIs need "data:" (any case) in the line: one look at the whole text instead of a
  // lower-cased copy of every line when there is none (issue #18). A case-insensitive search, not a
  // lower-cased copy of the text: no character outside ASCII lower-cases to "d", "a", "t" or ":".
  const mayHoldDataUris = DATA_URI_SCHEME.test(fileContent);
  // split_inclusive('\n'): every piece keeps its newline; no empty piece after a trailing one.
  let index = 0;
  let pos = 0;
  while (pos < fileContent.length) {
    const newline = fileContent.indexOf("\n", pos);
    const pieceEnd = newline === -1 ? fileContent.length : newline + 1;
    if (index >= skip && index - skip < take) {
      const first = firstLine === undefined;
      if (first) {
        start = pos;
        firstLine = index + 1;
      }
      end = pieceEnd;
      let line = fileContent.slice(pos, lineBodyEnd(fileContent, pos, newline));
      const extracted = mayHoldDataUris ? tryExtractBase64Images(line) : undefined;
      if (extracted) {
        images.push(...extracted.images);
        line = extracted.text;
      }
      const lineNumber = index + 1;
      parts.push(first || lineNumber % 10 === 0 ? `${lineNumber}→${line}` : line);
    } else if (index - skip >= take) break;
    index++;
    pos = pieceEnd;
  }
  const splitCount = countPieces(fileContent);
  if (hasTrailingEmpty && splitCount >= skip && splitCount < skip + take) {
    const lineNumber = splitCount + 1;
    const first = firstLine === undefined;
    if (first) firstLine = lineNumber;
    parts.push(first || lineNumber % 10 === 0 ? `${lineNumber}→` : "");
  }
  let rawOutput = firstLine === undefined || fileContent === "" ? "" : fileContent.slice(start, end);
  if (rawOutput.endsWith("\r\n")) rawOutput = `${rawOutput.slice(0, -2)}\n`;
  return { content: parts.join("\n"), rawOutput, extractedImages: images };
}

/** "data:" in any case (see `mayHoldDataUris`). */
const DATA_URI_SCHEME = /data:/i;

function countPieces(text: string): number {
  if (text === "") return 0;
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return text.endsWith("\n") ? count : count + 1;
}
