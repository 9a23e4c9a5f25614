/**
 * Slice mode of Codex read_file: lines `offset` .. `offset + limit - 1`.
 */
import { ToolError } from "@grok-tools/runtime";
import { formatLine, type LineRecord } from "./lines.js";

/** The formatted lines of the slice; INVALID_INPUT when `offset` is past the last line. */
export function readSlice(lines: readonly LineRecord[], offset: number, limit: number): string[] {
  if (offset > lines.length) {
    throw ToolError.invalidInput("offset exceeds file length", { details: { offset, total_lines: lines.length } });
  }
  return lines.slice(offset - 1, offset - 1 + limit).map(formatLine);
}
