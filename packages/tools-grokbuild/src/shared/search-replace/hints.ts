/**
 * Hints appended to the no-match message (current behaviour only): the nearest line sharing the
 * longest token of `old_string`'s first line, and a warning when Unicode typography in the file
 * explains the miss. Texts are the reference's.
 */
import { findOnPath } from "@grok-tools/runtime/helpers";
import { buildOffsetMap, confusableLines, hasConfusables, normalizeConfusables } from "./confusables.js";

/** Byte cap of the nearest-match hint, its leading blank line and the `…` marker included. */
const NEAREST_MATCH_HINT_MAX_BYTES = 200;
const ELLIPSIS = "…";
/** Confusable lines listed before "(and N more)". */
const MAX_LISTED_LINES = 8;

/** Rust `str::lines()`. */
function rustLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/** Cuts `text` to `maxBytes` UTF-8 bytes, the `…` marker inside the cap, never splitting a character. */
export function truncateWithMarker(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const budget = maxBytes - Buffer.byteLength(ELLIPSIS);
  let out = "";
  let used = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (used + size > budget) break;
    out += char;
    used += size;
  }
  return out + ELLIPSIS;
}

/**
 * `\n\nNearest match: line N: <line>` for the first line of `file` containing the longest
 * whitespace-separated token of `oldString`'s first line (ties go to the last token), or "".
 */
export function nearestMatchHint(file: string, oldString: string): string {
  const firstLine = rustLines(oldString)[0] ?? "";
  let keyword = "";
  for (const token of firstLine.split(/\s+/u)) {
    if (token !== "" && Buffer.byteLength(token) >= Buffer.byteLength(keyword)) keyword = token;
  }
  if (keyword === "") return "";
  const lines = rustLines(file);
  const index = lines.findIndex((line) => line.includes(keyword));
  if (index === -1) return "";
  return truncateWithMarker(`\n\nNearest match: line ${index + 1}: ${lines[index]!.trimEnd()}`, NEAREST_MATCH_HINT_MAX_BYTES);
}

let editToolsCache: string[] | undefined;

const onPath = (command: string): boolean => findOnPath(command) !== undefined;

/** Host commands that can edit a file from a script (`python3`/`python`, `sed`), backquoted. Host facts, cached per process. */
export function hostEditTools(): string[] {
  if (editToolsCache === undefined) {
    const python = onPath("python3") ? "python3" : onPath("python") ? "python" : undefined;
    editToolsCache = [python, onPath("sed") ? "sed" : undefined].filter((t): t is string => t !== undefined).map((t) => `\`${t}\``);
  }
  return editToolsCache;
}

/** ` (e.g. a)`, ` (e.g. a or b)`, ` (e.g. a, b, or c)`. */
export function examplesClause(tools: readonly string[]): string {
  if (tools.length === 0) return "";
  if (tools.length === 1) return ` (e.g. ${tools[0]})`;
  if (tools.length === 2) return ` (e.g. ${tools[0]} or ${tools[1]})`;
  return ` (e.g. ${tools.slice(0, -1).join(", ")}, or ${tools[tools.length - 1]})`;
}

/** Client names used in the confusable hint. */
export interface HintNames {
  readTool: string;
  oldStringParam: string;
  executeTool: string;
}

/**
 * The Unicode-typography diagnostic, when the file has confusables and a normalized match exists
 * whose lines carry some; otherwise "".
 */
export function confusableHint(file: string, oldString: string, names: HintNames, editTools: readonly string[] = hostEditTools()): string {
  if (!hasConfusables(file)) return "";
  const { normalized, offsets } = buildOffsetMap(file);
  const normalizedOld = normalizeConfusables(oldString);
  const at = normalized.indexOf(normalizedOld);
  if (at === -1) return "";
  const originalStart = offsets[at]!;
  const originalEnd = offsets[at + normalizedOld.length]!;
  const lineAt = (index: number): number => file.slice(0, index).split("\n").length;
  const firstLine = lineAt(originalStart);
  const lastLine = lineAt(originalEnd);
  const affected: number[] = [];
  for (const line of confusableLines(file)) {
    if (line >= firstLine && line <= lastLine && affected[affected.length - 1] !== line) affected.push(line);
  }
  if (affected.length === 0) return "";
  const summary =
    affected.length <= MAX_LISTED_LINES
      ? affected.join(", ")
      : `${affected.slice(0, MAX_LISTED_LINES).join(", ")} (and ${affected.length - MAX_LISTED_LINES} more)`;
  const readQualifier = names.readTool === "" ? "" : ` in ${names.readTool} output`;
  const oldParam = names.oldStringParam === "" ? "old_string" : names.oldStringParam;
  const terminal =
    editTools.length === 0 || names.executeTool === ""
      ? ""
      : `, or use ${names.executeTool} with a short script${examplesClause(editTools)} to edit the file directly`;
  return `\n\nThe nearest matching region contains Unicode typography characters (smart quotes, em-dashes, etc.) on lines ${summary} that look identical to ASCII${readQualifier} but differ at the byte level. Re-read the file and use a shorter ${oldParam} anchored on nearby ASCII-only context${terminal}.`;
}
