/**
 * Parser of the Codex patch format (the grammar in grammar.ts, read leniently: markers may carry
 * surrounding whitespace and the patch may be wrapped in a `<<EOF` heredoc). Pure: no file access.
 * Every failure is a ToolError (INVALID_INPUT) whose message is the reference's text.
 */
import { ErrorCode, ToolError } from "@grok-tools/runtime";
import { rustLines, trimRust } from "../shared/rust-text.js";

const BEGIN_PATCH_MARKER = "*** Begin Patch";
const END_PATCH_MARKER = "*** End Patch";
const ADD_FILE_MARKER = "*** Add File: ";
const DELETE_FILE_MARKER = "*** Delete File: ";
const UPDATE_FILE_MARKER = "*** Update File: ";
const MOVE_TO_MARKER = "*** Move to: ";
const EOF_MARKER = "*** End of File";
const CHANGE_CONTEXT_MARKER = "@@ ";
const EMPTY_CHANGE_CONTEXT_MARKER = "@@";
const HEREDOC_OPENERS: readonly string[] = ["<<EOF", "<<'EOF'", '<<"EOF"'];

/** One contiguous edit inside an Update File hunk. */
export interface UpdateFileChunk {
  /** The `@@ {context}` line that narrows where the chunk applies, if any. */
  changeContext: string | undefined;
  /** Lines to find (context and removed lines). */
  oldLines: string[];
  /** Lines to put in their place (context and added lines). */
  newLines: string[];
  /** The chunk must match at the end of the file (`*** End of File`). */
  isEndOfFile: boolean;
}

/** One file operation of a patch. */
export type Hunk =
  | { kind: "add"; path: string; contents: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; movePath: string | undefined; chunks: UpdateFileChunk[] };

/** A parsed patch. */
export interface ParsedPatch {
  hunks: Hunk[];
  /** The patch lines actually parsed (heredoc wrapper removed), joined by `\n`. */
  patch: string;
}

/** Details carried by a parse failure's ToolError. */
export interface PatchParseErrorDetails {
  kind: "invalid_patch" | "invalid_hunk";
  /** The reference's message without its `Invalid patch…:` prefix. */
  message: string;
  /** 1-based line of the patch the hunk error is about. */
  line_number?: number;
}

function invalidPatch(message: string): ToolError {
  const details: PatchParseErrorDetails = { kind: "invalid_patch", message };
  return new ToolError(ErrorCode.INVALID_INPUT, `Invalid patch: ${message}`, {
    details,
    suggestion: "Start the patch with '*** Begin Patch' and end it with '*** End Patch'.",
  });
}

function invalidHunk(message: string, lineNumber: number): ToolError {
  const details: PatchParseErrorDetails = { kind: "invalid_hunk", message, line_number: lineNumber };
  return new ToolError(ErrorCode.INVALID_INPUT, `Invalid patch hunk on line ${lineNumber}: ${message}`, {
    lineNumber,
    details,
  });
}

/** Parses a patch. Throws a ToolError (INVALID_INPUT) with the reference's message when it is malformed. */
export function parsePatch(patch: string): ParsedPatch {
  const allLines = rustLines(trimRust(patch));
  const lines = checkBoundariesLenient(allLines);
  const hunks: Hunk[] = [];
  let lineNumber = 2;
  let index = 1;
  const end = lines.length - 1;
  while (index < end) {
    // Offsets, not slices: a slice per hunk or chunk made a patch of many hunks quadratic.
    const { hunk, consumed } = parseOneHunk(lines, index, end, lineNumber);
    hunks.push(hunk);
    lineNumber += consumed;
    index += consumed;
  }
  return { hunks, patch: lines.join("\n") };
}

/** Checks the first and last lines; `undefined` when they are right, else the error. */
function boundaryError(lines: readonly string[]): ToolError | undefined {
  const first = lines[0] === undefined ? undefined : trimRust(lines[0]);
  const last = lines.length === 0 ? undefined : trimRust(lines[lines.length - 1] as string);
  if (first === BEGIN_PATCH_MARKER && last === END_PATCH_MARKER) return undefined;
  if (first !== undefined && first !== BEGIN_PATCH_MARKER) {
    return invalidPatch("The first line of the patch must be '*** Begin Patch'");
  }
  return invalidPatch("The last line of the patch must be '*** End Patch'");
}

/** The lines to parse: as given, or the inside of a `<<EOF … EOF` heredoc wrapper. */
function checkBoundariesLenient(lines: string[]): string[] {
  const strictError = boundaryError(lines);
  if (strictError === undefined) return lines;
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (lines.length >= 4 && first !== undefined && last !== undefined && HEREDOC_OPENERS.includes(first) && last.endsWith("EOF")) {
    const inner = lines.slice(1, -1);
    const innerError = boundaryError(inner);
    if (innerError !== undefined) throw innerError;
    return inner;
  }
  throw strictError;
}

/** Parses the hunk starting at `lines[from]`, looking no further than `lines[end - 1]`. */
function parseOneHunk(lines: readonly string[], from: number, end: number, lineNumber: number): { hunk: Hunk; consumed: number } {
  const firstLine = trimRust(lines[from] ?? "");
  if (firstLine.startsWith(ADD_FILE_MARKER)) {
    const path = firstLine.slice(ADD_FILE_MARKER.length);
    let contents = "";
    let consumed = 1;
    for (let i = from + 1; i < end; i++) {
      const line = lines[i] as string;
      if (!line.startsWith("+")) break;
      contents += `${line.slice(1)}\n`;
      consumed += 1;
    }
    return { hunk: { kind: "add", path, contents }, consumed };
  }
  if (firstLine.startsWith(DELETE_FILE_MARKER)) {
    return { hunk: { kind: "delete", path: firstLine.slice(DELETE_FILE_MARKER.length) }, consumed: 1 };
  }
  if (firstLine.startsWith(UPDATE_FILE_MARKER)) {
    const path = firstLine.slice(UPDATE_FILE_MARKER.length);
    let index = 1;
    let movePath: string | undefined;
    const maybeMove = from + 1 < end ? lines[from + 1] : undefined;
    if (maybeMove !== undefined && maybeMove.startsWith(MOVE_TO_MARKER)) {
      movePath = maybeMove.slice(MOVE_TO_MARKER.length);
      index += 1;
    }
    const chunks: UpdateFileChunk[] = [];
    while (from + index < end) {
      const line = lines[from + index] as string;
      if (trimRust(line) === "") {
        index += 1;
        continue;
      }
      if (line.startsWith("***")) break;
      const { chunk, consumed } = parseChunkAt(lines, from + index, end, lineNumber + index, chunks.length === 0);
      chunks.push(chunk);
      index += consumed;
    }
    if (chunks.length === 0) {
      throw invalidHunk(`Update file hunk for path '${path}' is empty`, lineNumber);
    }
    return { hunk: { kind: "update", path, movePath, chunks }, consumed: index };
  }
  throw invalidHunk(
    `'${firstLine}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'`,
    lineNumber,
  );
}

/** Parses one chunk of an Update File hunk; exported for tests. */
export function parseUpdateFileChunk(lines: readonly string[], lineNumber: number, allowMissingContext: boolean): { chunk: UpdateFileChunk; consumed: number } {
  return parseChunkAt(lines, 0, lines.length, lineNumber, allowMissingContext);
}

/** Parses the chunk starting at `lines[from]`, looking no further than `lines[end - 1]`. */
function parseChunkAt(
  lines: readonly string[],
  from: number,
  end: number,
  lineNumber: number,
  allowMissingContext: boolean,
): { chunk: UpdateFileChunk; consumed: number } {
  const first = from < end ? lines[from] : undefined;
  if (first === undefined) throw invalidHunk("Update hunk does not contain any lines", lineNumber);
  let changeContext: string | undefined;
  let start = 0;
  if (first === EMPTY_CHANGE_CONTEXT_MARKER) {
    start = 1;
  } else if (first.startsWith(CHANGE_CONTEXT_MARKER)) {
    changeContext = first.slice(CHANGE_CONTEXT_MARKER.length);
    start = 1;
  } else if (!allowMissingContext) {
    throw invalidHunk(`Expected update hunk to start with a @@ context marker, got: '${first}'`, lineNumber);
  }
  if (from + start >= end) throw invalidHunk("Update hunk does not contain any lines", lineNumber + 1);

  const chunk: UpdateFileChunk = { changeContext, oldLines: [], newLines: [], isEndOfFile: false };
  let parsed = 0;
  for (let i = from + start; i < end; i++) {
    const line = lines[i] as string;
    if (line === EOF_MARKER) {
      if (parsed === 0) throw invalidHunk("Update hunk does not contain any lines", lineNumber + 1);
      chunk.isEndOfFile = true;
      parsed += 1;
      break;
    }
    const marker = line[0];
    if (marker === undefined) {
      chunk.oldLines.push("");
      chunk.newLines.push("");
    } else if (marker === " ") {
      chunk.oldLines.push(line.slice(1));
      chunk.newLines.push(line.slice(1));
    } else if (marker === "+") {
      chunk.newLines.push(line.slice(1));
    } else if (marker === "-") {
      chunk.oldLines.push(line.slice(1));
    } else {
      if (parsed === 0) {
        throw invalidHunk(
          `Unexpected line found in update hunk: '${line}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)`,
          lineNumber + 1,
        );
      }
      break;
    }
    parsed += 1;
  }
  return { chunk, consumed: parsed + start };
}
