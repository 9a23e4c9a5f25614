/**
 * Indentation mode of Codex read_file: grows a block outward from an anchor line while lines stay at
 * or above an indentation floor, taking one line up and one line down per round, with the reference's
 * rules for sibling blocks and header comments at the floor.
 */
import { ToolError } from "@grok-tools/runtime";
import { trimRust, trimStartRust } from "../shared/rust-text.js";
import { formatLine, type LineRecord } from "./lines.js";

/** Columns a tab counts for. */
const TAB_WIDTH = 4;
const COMMENT_PREFIXES: readonly string[] = ["#", "//", "--"];

/** Options of indentation mode. */
export interface IndentationOptions {
  anchorLine: number | undefined;
  maxLevels: number;
  includeSiblings: boolean;
  includeHeader: boolean;
  maxLines: number | undefined;
}

const isBlank = (record: LineRecord): boolean => trimStartRust(record.raw) === "";
const isComment = (record: LineRecord): boolean => {
  const trimmed = trimRust(record.raw);
  return COMMENT_PREFIXES.some((prefix) => trimmed.startsWith(prefix));
};

/** Leading indentation in columns (spaces count 1, tabs 4). */
export function measureIndent(line: string): number {
  let indent = 0;
  for (const ch of line) {
    if (ch === " ") indent += 1;
    else if (ch === "\t") indent += TAB_WIDTH;
    else break;
  }
  return indent;
}

/** Indentation per line, blank lines inheriting the previous non-blank line's. */
function effectiveIndents(lines: readonly LineRecord[]): number[] {
  let last = 0;
  return lines.map((line) => {
    if (!isBlank(line)) last = measureIndent(line.raw);
    return last;
  });
}

/** The formatted lines of the block around the anchor; empty for an empty file. */
export function readBlock(lines: readonly LineRecord[], offset: number, limit: number, options: IndentationOptions): string[] {
  if (lines.length === 0) return [];
  const anchor = options.anchorLine ?? offset;
  if (anchor === 0 || anchor > lines.length) {
    throw ToolError.invalidInput("anchor_line exceeds file length", { details: { anchor_line: anchor, total_lines: lines.length } });
  }
  const guardLimit = options.maxLines ?? limit;
  if (guardLimit === 0) throw ToolError.invalidInput("max_lines must be greater than zero");
  const finalLimit = Math.min(limit, guardLimit, lines.length);
  const effective = effectiveIndents(lines);
  const anchorIndex = anchor - 1;
  const anchorIndent = effective[anchorIndex] as number;
  const minIndent = options.maxLevels === 0 ? 0 : Math.max(0, anchorIndent - options.maxLevels * TAB_WIDTH);

  if (finalLimit === 1) return [formatLine(lines[anchorIndex] as LineRecord)];

  const out: number[] = [anchorIndex];
  let up = anchorIndex - 1;
  let down = anchorIndex + 1;
  let upAtFloor = 0;
  let downAtFloor = 0;

  const stepUp = (): boolean => {
    const indent = effective[up] as number;
    if (indent < minIndent) {
      up = -1;
      return false;
    }
    const index = up;
    out.unshift(index);
    up -= 1;
    if (indent === minIndent && !options.includeSiblings) {
      const headerComment = options.includeHeader && isComment(lines[index] as LineRecord);
      if (headerComment || upAtFloor === 0) {
        upAtFloor += 1;
      } else {
        out.shift();
        up = -1;
        return false;
      }
    }
    return true;
  };

  const stepDown = (): boolean => {
    const indent = effective[down] as number;
    if (indent < minIndent) {
      down = lines.length;
      return false;
    }
    out.push(down);
    down += 1;
    if (indent === minIndent && !options.includeSiblings) {
      if (downAtFloor > 0) {
        out.pop();
        down = lines.length;
        downAtFloor += 1;
        return false;
      }
      downAtFloor += 1;
    }
    return true;
  };

  while (out.length < finalLimit) {
    let progressed = 0;
    if (up >= 0) {
      if (stepUp()) progressed += 1;
      if (out.length >= finalLimit) break;
    }
    if (down < lines.length && stepDown()) progressed += 1;
    if (progressed === 0) break;
  }

  while (out.length > 0 && isBlank(lines[out[0] as number] as LineRecord)) out.shift();
  while (out.length > 0 && isBlank(lines[out[out.length - 1] as number] as LineRecord)) out.pop();
  return out.map((index) => formatLine(lines[index] as LineRecord));
}
