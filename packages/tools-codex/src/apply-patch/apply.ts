/**
 * Computes the new contents of a file from its old contents and the chunks of an Update File hunk.
 * Pure: no file access. A chunk that cannot be placed is a ToolError (NO_MATCHES) naming the file.
 */
import { ErrorCode, ToolError } from "@grok-tools/runtime";
import type { UpdateFileChunk } from "./parser.js";
import { seekSequence } from "./seek-sequence.js";

/** One edit to a list of lines: replace `oldLength` lines at `start` with `newLines`. */
export interface Replacement {
  start: number;
  oldLength: number;
  newLines: string[];
}

function noMatch(message: string, filePath: string, details: Record<string, unknown>): ToolError {
  return new ToolError(ErrorCode.NO_MATCHES, message, {
    filePath,
    details: { file_path: filePath, ...details },
    suggestion: "Read the file again and make the context and removed lines match its current contents.",
  });
}

/**
 * The new contents of a file. Lines are split on `\n` (one empty last element from a final newline
 * is dropped), the chunks are placed in order, and the result always ends with a newline.
 * `displayPath` is the path named in failure messages.
 */
export function deriveNewContents(original: string, displayPath: string, chunks: readonly UpdateFileChunk[]): string {
  const lines = original.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const replacements = computeReplacements(lines, displayPath, chunks);
  const result = applyReplacements(lines, replacements);
  if (result[result.length - 1] !== "") result.push("");
  return result.join("\n");
}

/** Where each chunk goes, sorted by position. Throws NO_MATCHES when a chunk's context or lines are missing. */
export function computeReplacements(lines: readonly string[], displayPath: string, chunks: readonly UpdateFileChunk[]): Replacement[] {
  const replacements: Replacement[] = [];
  let cursor = 0;
  chunks.forEach((chunk, chunkIndex) => {
    if (chunk.changeContext !== undefined) {
      const found = seekSequence(lines, [chunk.changeContext], cursor, false);
      if (found === undefined) {
        throw noMatch(`Failed to find context '${chunk.changeContext}' in ${displayPath}`, displayPath, {
          chunk: chunkIndex + 1,
          context: chunk.changeContext,
        });
      }
      cursor = found + 1;
    }
    if (chunk.oldLines.length === 0) {
      const insertAt = lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
      replacements.push({ start: insertAt, oldLength: 0, newLines: [...chunk.newLines] });
      return;
    }
    let pattern = chunk.oldLines;
    let newSlice = chunk.newLines;
    let found = seekSequence(lines, pattern, cursor, chunk.isEndOfFile);
    if (found === undefined && pattern[pattern.length - 1] === "") {
      pattern = pattern.slice(0, -1);
      if (newSlice[newSlice.length - 1] === "") newSlice = newSlice.slice(0, -1);
      found = seekSequence(lines, pattern, cursor, chunk.isEndOfFile);
    }
    if (found === undefined) {
      throw noMatch(`Failed to find expected lines in ${displayPath}:\n${chunk.oldLines.join("\n")}`, displayPath, {
        chunk: chunkIndex + 1,
        expected_lines: chunk.oldLines,
      });
    }
    replacements.push({ start: found, oldLength: pattern.length, newLines: [...newSlice] });
    cursor = found + pattern.length;
  });
  // A stable sort, like Rust's `sort_by_key`.
  return replacements
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.start - b.r.start || a.i - b.i)
    .map(({ r }) => r);
}

/** Applies sorted replacements bottom-up, so that earlier positions stay valid. */
export function applyReplacements(lines: readonly string[], replacements: readonly Replacement[]): string[] {
  const result = [...lines];
  for (let k = replacements.length - 1; k >= 0; k -= 1) {
    const { start, oldLength, newLines } = replacements[k] as Replacement;
    const removable = Math.max(0, Math.min(oldLength, result.length - start));
    result.splice(start, removable, ...newLines);
  }
  return result;
}
