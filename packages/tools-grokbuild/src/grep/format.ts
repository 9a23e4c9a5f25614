/**
 * Formatting of ripgrep output into grep's prompt text (spec §4.5, §13.15): head limit, per-line
 * clipping, the cumulative byte cap, "Found N ..." headers and the `<workspace_result>` wrapper.
 * Pure functions; sizes are UTF-8 bytes and line widths are Unicode scalar values, as in the reference.
 */
import type { GrepFileMatch, OutputMode } from "./schema.js";

/** Default per-line width. */
export const DEFAULT_MAX_CHARS_PER_LINE = 1_000;
/** Default cumulative body size. */
export const DEFAULT_MAX_OUTPUT_BYTES = 40_000;

/** Formatting knobs resolved once per call. */
export interface GrepFormatConfig {
  outputMode: OutputMode;
  effectiveHeadLimit: number;
  maxCharsPerLine: number;
  maxOutputBytes: number;
  /** The path shown in `<workspace_result workspace_path=...>` and error texts. */
  cwdDisplay: string;
}

/** What the formatter makes of one ripgrep run. */
export interface FormattedGrep {
  stdout: string;
  stderr: string;
  exitCode: number;
  matchCount: number;
  fileMatches: GrepFileMatch[];
  /** Lines were dropped by the head limit, the stdout cap or the byte budget. */
  truncated: boolean;
}

const byteLength = (text: string): number => Buffer.byteLength(text, "utf8");

/** Clips a line to `maxChars` code points, saying how long it was (`truncate_line`). */
export function trimLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  const chars = Array.from(line);
  if (chars.length <= maxChars) return line;
  return `${chars.slice(0, maxChars).join("")} [... truncated (${chars.length} chars total)]`;
}

/** Rust `str::lines()`: split on `\n`, drop one trailing `\r` per line, no final empty line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/** `123:content` or `45-context` → [line, separator, rest]. */
export function parseNumberedLine(line: string): [number, ":" | "-", string] | undefined {
  const match = /^(\d+)([:-])/.exec(line);
  if (!match) return undefined;
  return [Number(match[1]), match[2] as ":" | "-", line.slice(match[0].length)];
}

/** Number of match (`N:`) lines. */
export function countMatches(lines: readonly string[]): number {
  return lines.filter((line) => parseNumberedLine(line)?.[1] === ":").length;
}

/** Structured per-file matches of `--heading` output. */
export function parseFileMatches(lines: readonly string[], maxCharsPerLine: number): GrepFileMatch[] {
  const out: GrepFileMatch[] = [];
  let current: GrepFileMatch | undefined;
  const flush = (): void => {
    if (current && current.matches.length > 0) out.push(current);
    current = undefined;
  };
  for (const line of lines) {
    const stripped = line.trim();
    if (stripped === "") {
      flush();
      continue;
    }
    if (stripped === "--") continue;
    if (!current) {
      current = { path: stripped, matches: [] };
      continue;
    }
    const numbered = parseNumberedLine(line);
    if (numbered) {
      if (numbered[1] === ":") current.matches.push({ line_number: numbered[0], content: trimLine(numbered[2], maxCharsPerLine) });
      continue;
    }
    flush();
    current = { path: stripped, matches: [] };
  }
  flush();
  return out;
}

function firstIndexOverBudget(lines: readonly string[], limit: number): number {
  let total = 0;
  for (let i = 0; i < lines.length; i++) {
    const size = byteLength(lines[i]!);
    if (total + size > limit) return i;
    total += size;
  }
  return lines.length;
}

function sumCounts(lines: readonly string[]): number {
  let sum = 0;
  for (const line of lines) {
    const last = line.slice(line.lastIndexOf(":") + 1);
    if (/^\d+$/.test(last)) sum += Number(last);
  }
  return sum;
}

function formatBody(lines: string[], truncated: boolean, config: GrepFormatConfig): string {
  const atLeast = truncated ? "at least " : "";
  const trimmed = lines.map((line) => trimLine(line, config.maxCharsPerLine));
  const cut = firstIndexOverBudget(trimmed, config.maxOutputBytes);
  let header: string;
  let dropped: number;
  if (config.outputMode === "content") {
    header = `Found ${atLeast}${countMatches(lines)} matching lines`;
    dropped = countMatches(trimmed.slice(cut));
  } else if (config.outputMode === "files_with_matches") {
    header = `Found ${atLeast}${lines.length} files`;
    dropped = lines.length - cut;
  } else {
    header = `Found ${sumCounts(lines)} across ${atLeast}${lines.length} files`;
    dropped = lines.length - cut;
  }
  const out = [header, ...trimmed.slice(0, cut)];
  if (dropped > 0) out.push(`... [${atLeast}${dropped} lines truncated] ...`);
  return out.join("\n");
}

/** Builds grep's result from ripgrep's captured output and exit code (`finalize_grep`). */
export function finalizeGrep(stdoutText: string, stdoutTruncated: boolean, stderrText: string, exitCode: number, config: GrepFormatConfig): FormattedGrep {
  const empty = { matchCount: 0, fileMatches: [], truncated: false };
  if ((exitCode === 1 && stdoutText === "") || (exitCode === 2 && stderrText.includes("No files were searched"))) {
    const stdout = `<workspace_result workspace_path="${config.cwdDisplay}">\nNo matches found\n</workspace_result>`;
    return { stdout, stderr: "", exitCode, ...empty };
  }
  if (exitCode === 2) {
    return { stdout: `Error calling tool: ${stderrText} (exit 2, root: ${config.cwdDisplay})`, stderr: stderrText, exitCode, ...empty };
  }
  if (exitCode !== 0) {
    return { stdout: `Error calling tool: unknown error (exit ${exitCode}, root: ${config.cwdDisplay})`, stderr: stderrText, exitCode, ...empty };
  }
  let lines = splitLines(stdoutText);
  let truncated = stdoutTruncated;
  if (lines.length > config.effectiveHeadLimit) {
    truncated = true;
    lines = lines.slice(0, config.effectiveHeadLimit);
  }
  const fileMatches = config.outputMode === "content" ? parseFileMatches(lines, config.maxCharsPerLine) : [];
  const matchCount = config.outputMode === "content" ? countMatches(lines) : config.outputMode === "files_with_matches" ? lines.length : sumCounts(lines);
  const body = formatBody(lines, truncated, config);
  return {
    stdout: `<workspace_result workspace_path="${config.cwdDisplay}">\n${body}\n</workspace_result>`,
    stderr: stderrText,
    exitCode,
    matchCount,
    fileMatches,
    truncated: truncated || body.includes(" lines truncated] ..."),
  };
}
