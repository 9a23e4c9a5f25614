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

/** Where the window's lines were found, filled in by a collector. */
interface WindowSpan {
  /** 1-based number of the window's first line; undefined while no line was taken. */
  firstLine: number | undefined;
  /** The window's first and past-its-last character in `fileContent` (with its last newline). */
  start: number;
  end: number;
}

/** Formats the window `offset`/`limit` of `fileContent` (which has `totalLines` lines). */
export function extractFileContentLines(fileContent: string, offset: number | undefined, limit: number | undefined, totalLines: number): ExtractedContent {
  const parts: string[] = [];
  const span: WindowSpan = { firstLine: undefined, start: 0, end: 0 };
  const images: ExtractedImage[] = [];
  const skip = resolveReadStartLine(fileContent, offset) - 1;
  const take = limit ?? Number.MAX_SAFE_INTEGER;
  const hasTrailingEmpty = fileContent !== "" && fileContent.endsWith("\n");
  if (fileContent === "" && totalLines > 0 && skip === 0 && take > 0) {
    parts.push("1→");
    span.firstLine = 1;
  }
  // Inline data URIs need "data:" (any case) in the line: one look at the whole text instead of a
  // lower-cased copy of every line when there is none (issue #18). A case-insensitive search, not a
  // lower-cased copy of the text: no character outside ASCII lower-cases to "d", "a", "t" or ":".
  const mayHoldDataUris = DATA_URI_SCHEME.test(fileContent);
  if (!mayHoldDataUris && !fileContent.includes("\r")) collectPlainLines(fileContent, skip, take, parts, span);
  else collectLineByLine(fileContent, skip, take, mayHoldDataUris, parts, images, span);
  const splitCount = countPieces(fileContent);
  if (hasTrailingEmpty && splitCount >= skip && splitCount < skip + take) {
    const lineNumber = splitCount + 1;
    const first = span.firstLine === undefined;
    if (first) span.firstLine = lineNumber;
    parts.push(first || lineNumber % 10 === 0 ? `${lineNumber}→` : "");
  }
  let rawOutput = span.firstLine === undefined || fileContent === "" ? "" : fileContent.slice(span.start, span.end);
  if (rawOutput.endsWith("\r\n")) rawOutput = `${rawOutput.slice(0, -2)}\n`;
  return { content: parts.join("\n"), rawOutput, extractedImages: images };
}

/**
 * Pushes the window's lines one by one (split_inclusive('\n'): every piece keeps its newline; no
 * empty piece after a trailing one), each line's body without a `\r` before its `\n`, data URIs
 * taken out when the text may hold one, `N→` on the first and every tenth.
 */
function collectLineByLine(
  fileContent: string,
  skip: number,
  take: number,
  mayHoldDataUris: boolean,
  parts: string[],
  images: ExtractedImage[],
  span: WindowSpan,
): void {
  let index = 0;
  let pos = 0;
  while (pos < fileContent.length) {
    const newline = fileContent.indexOf("\n", pos);
    const pieceEnd = newline === -1 ? fileContent.length : newline + 1;
    if (index >= skip && index - skip < take) {
      const first = span.firstLine === undefined;
      if (first) {
        span.start = pos;
        span.firstLine = index + 1;
      }
      span.end = pieceEnd;
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
}

/**
 * The same lines as {@link collectLineByLine} for a text with no `\r` and no data URI, where no line
 * changes: each run from an anchor (`N→`) to the line before the next is the text's own slice, its
 * newlines being the ones a join would put back. One string per ten lines instead of one per line
 * (issue #18: the window was a quarter of a 2 000-line read's time in process).
 */
function collectPlainLines(fileContent: string, skip: number, take: number, parts: string[], span: WindowSpan): void {
  const length = fileContent.length;
  let index = 0;
  let pos = 0;
  for (; index < skip && pos < length; index++) {
    const newline = fileContent.indexOf("\n", pos);
    pos = newline === -1 ? length : newline + 1;
  }
  let taken = 0;
  while (pos < length && taken < take) {
    const lineNumber = index + 1;
    if (span.firstLine === undefined) {
      span.start = pos;
      span.firstLine = lineNumber;
    }
    // This run: from its first line (the window's first, or a tenth) up to the next tenth.
    const lines = Math.min(10 - (lineNumber % 10), take - taken);
    const runStart = pos;
    let bodyEnd = pos;
    let counted = 0;
    while (counted < lines && pos < length) {
      const newline = fileContent.indexOf("\n", pos);
      bodyEnd = newline === -1 ? length : newline;
      pos = newline === -1 ? length : newline + 1;
      counted++;
    }
    parts.push(`${lineNumber}→${fileContent.slice(runStart, bodyEnd)}`);
    span.end = pos;
    index += counted;
    taken += counted;
  }
}

/** "data:" in any case (see `mayHoldDataUris`). */
const DATA_URI_SCHEME = /data:/i;

function countPieces(text: string): number {
  if (text === "") return 0;
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return text.endsWith("\n") ? count : count + 1;
}
