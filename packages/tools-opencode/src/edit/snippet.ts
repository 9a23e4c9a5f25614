/**
 * The pure text work of `OpenCode:edit`: replacing at match positions, the `N→line` snippet around
 * an edit (three lines of context) and the per-replacement details.
 */
import type { EditDetail } from "../shared/edit-output.js";

/** Lines of context around an edit. */
export const CONTEXT_LINES = 3;

/** `str::split_inclusive('\n')`: lines keeping their `\n`, no trailing empty piece. */
export function splitInclusive(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", start)) {
    out.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** Start offsets of every non-overlapping occurrence of `needle` (left to right). */
export function matchPositions(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

/** Replaces `oldString` at `positions`; returns the new text and where each replacement starts in it. */
export function replaceAt(text: string, positions: readonly number[], oldString: string, newString: string): { text: string; starts: number[] } {
  let out = "";
  let last = 0;
  const starts: number[] = [];
  for (const at of positions) {
    out += text.slice(last, at);
    starts.push(out.length);
    out += newString;
    last = at + oldString.length;
  }
  return { text: out + text.slice(last), starts };
}

function lineRange(text: string, start: number, inserted: string): { startLine: number; endLine: number } {
  let startLine = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < start; i = text.indexOf("\n", i + 1)) startLine++;
  return { startLine, endLine: startLine + Math.max(splitInclusive(inserted).length, 1) - 1 };
}

/** The edited lines ±{@link CONTEXT_LINES}, each `N→line`, and the context before and after. */
export function renderSnippet(newText: string, newString: string, start: number): { snippet: string; before: string; after: string } {
  const { startLine, endLine } = lineRange(newText, start, newString);
  const lines = splitInclusive(newText);
  const from = Math.max(startLine - CONTEXT_LINES, 0);
  const to = Math.min(endLine + CONTEXT_LINES, Math.max(lines.length - 1, 0));
  const before = from < startLine ? lines.slice(from, startLine).join("") : "";
  const after = endLine < to ? lines.slice(endLine + 1, to + 1).join("") : "";
  let snippet = "";
  for (let i = from; i <= to && i < lines.length; i++) snippet += `${i + 1}→${lines[i]}`;
  return { snippet, before, after };
}

/** One detail per replacement, on the new text. */
export function editDetails(newText: string, oldString: string, newString: string, starts: readonly number[]): EditDetail[] {
  return starts.map((start) => {
    const { startLine } = lineRange(newText, start, newString);
    const { before, after } = renderSnippet(newText, newString, start);
    const lineStart = newText.lastIndexOf("\n", start - 1) + 1;
    return {
      old_string: oldString,
      old_line: startLine + 1,
      new_string: newString,
      new_line: startLine + 1,
      context_before: before,
      context_after: after,
      line_prefix: start === 0 ? "" : newText.slice(lineStart, start),
    };
  });
}

/** The created file's content as `N→line` lines (`split_inclusive`, so each keeps its newline). */
export function numberedContent(text: string): string {
  return splitInclusive(text)
    .map((line, i) => `${i + 1}→${line}`)
    .join("");
}
