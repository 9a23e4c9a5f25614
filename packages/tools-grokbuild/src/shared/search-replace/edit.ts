/**
 * The pure text edit of `search_replace`: replacing matched spans and describing each replacement
 * (line numbers and three lines of context, spec §4.3 `edits.details`).
 */

/** Lines of context kept before and after each replacement. */
export const CONTEXT_LINES = 3;

/** One replacement as reported in `edits.details`. */
export interface EditDetail {
  old_string: string;
  old_line: number;
  new_string: string;
  new_line: number;
  context_before: string;
  context_after: string;
  line_prefix: string;
}

/** Replaces the spans (start, length) of `text` with `replacement`; returns the text and the new starts. */
export function replaceSpans(text: string, spans: readonly { start: number; length: number }[], replacement: string): { text: string; starts: number[] } {
  let out = "";
  const starts: number[] = [];
  let last = 0;
  for (const span of spans) {
    out += text.slice(last, span.start);
    starts.push(out.length);
    out += replacement;
    last = span.start + span.length;
  }
  return { text: out + text.slice(last), starts };
}

/** `str::split_inclusive('\n')`: lines keeping their `\n`; no trailing empty piece. */
function splitInclusive(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", start)) {
    out.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** Newlines in `text[from, to)`. */
function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * The 0-based line of each start (ascending), counted in one pass over the text: counting from the
 * beginning for every start made `replace_all` quadratic in the number of matches.
 */
export function lineIndexesOf(text: string, starts: readonly number[]): number[] {
  const out: number[] = [];
  let line = 0;
  let at = 0;
  for (const start of starts) {
    line += countNewlines(text, at, start);
    at = start;
    out.push(line);
  }
  return out;
}

/** The UTF-8 size of a detail's strings (what it adds to a reply). */
export function editDetailBytes(detail: EditDetail): number {
  return [detail.old_string, detail.new_string, detail.context_before, detail.context_after, detail.line_prefix].reduce(
    (sum, text) => sum + Buffer.byteLength(text, "utf8"),
    0,
  );
}

/**
 * The details of each replacement, computed on the new text. With `maxBytes`, stops before the
 * detail that would take the details' strings past it (the caller sees fewer details than starts).
 */
export function buildEditDetails(
  newText: string,
  oldString: string,
  newString: string,
  starts: readonly number[],
  options: { maxBytes?: number } = {},
): EditDetail[] {
  const lines = splitInclusive(newText);
  const insertedLines = Math.max(splitInclusive(newString).length, 1);
  const lineIndexes = lineIndexesOf(newText, starts);
  const details: EditDetail[] = [];
  let bytes = 0;
  for (const [i, start] of starts.entries()) {
    const startLine = lineIndexes[i]!;
    const endLine = startLine + insertedLines - 1;
    const snippetStart = Math.max(startLine - CONTEXT_LINES, 0);
    const snippetEnd = Math.min(endLine + CONTEXT_LINES, Math.max(lines.length - 1, 0));
    const lineStart = newText.lastIndexOf("\n", start - 1) + 1;
    const detail: EditDetail = {
      old_string: oldString,
      old_line: startLine + 1,
      new_string: newString,
      new_line: startLine + 1,
      context_before: snippetStart < startLine ? lines.slice(snippetStart, startLine).join("") : "",
      context_after: endLine < snippetEnd ? lines.slice(endLine + 1, snippetEnd + 1).join("") : "",
      line_prefix: start === 0 ? "" : newText.slice(lineStart, start),
    };
    if (options.maxBytes !== undefined) {
      bytes += editDetailBytes(detail);
      if (bytes > options.maxBytes) break;
    }
    details.push(detail);
  }
  return details;
}
