/**
 * Runs one `OpenCode:grep` call (spec §4.14): ripgrep with `|` field separators inside the checked
 * search root, matches newest file first, at most 100 shown, grouped by file.
 */
import path from "node:path";
import type { ToolContext, ToolResult } from "@grok-tools/runtime";
import { SearchRootMissing, runSearch, type SearchRun } from "../shared/ripgrep.js";
import type { GrepFileMatch, GrepInput, GrepOutput } from "./schema.js";

/** Matches shown at most. */
export const RESULT_LIMIT = 100;
/** Characters of a matching line shown before `...`. */
export const MAX_LINE_LENGTH = 2000;

const NO_FILES = "No files found";

/** Searches and formats. */
export async function runGrep(input: GrepInput, ctx: ToolContext): Promise<ToolResult<GrepOutput>> {
  const given = input.path ?? "";
  // The reference joins the path as given (no ~ expansion or quote clean-up).
  const searchPath = given === "" ? ctx.cwd : path.isAbsolute(given) ? given : path.join(ctx.cwd, given);
  let run: SearchRun;
  try {
    run = await runSearch(ctx, searchPath, given === "" ? searchPath : given, (at) => {
      // --sortr=modified: the newest file first, as the reference sorts, in one deterministic order.
      const args = ["-n", "-H", "--hidden", "--no-messages", "--sortr=modified", "--field-match-separator=|", "--regexp", input.pattern];
      if (input.include !== undefined && input.include !== null && input.include !== "") args.push("--glob", input.include);
      args.push("--", at);
      return args;
    });
  } catch (error) {
    if (!(error instanceof SearchRootMissing)) throw error;
    run = { stdout: "", stderr: "", exitCode: 2, truncatedByBytes: false };
  }
  const empty = (exitCode: number): ToolResult<GrepOutput> => ({
    output: { type: "GrepSearch", stdout: NO_FILES, stderr: run.stderr, exit_code: exitCode, match_count: 0, file_matches: [] },
    promptText: NO_FILES,
  });
  if (run.exitCode === 1 || (run.exitCode === 2 && run.stdout.trim() === "")) return empty(run.exitCode);

  const matches: { path: string; line: number; text: string }[] = [];
  for (const raw of run.stdout.split("\n")) {
    if (raw === "") continue;
    const first = raw.indexOf("|");
    const second = first === -1 ? -1 : raw.indexOf("|", first + 1);
    if (first === -1) continue;
    const lineText = second === -1 ? "" : raw.slice(second + 1);
    const num = Number(second === -1 ? raw.slice(first + 1) : raw.slice(first + 1, second));
    if (!Number.isSafeInteger(num)) continue;
    matches.push({ path: raw.slice(0, first), line: num, text: lineText });
  }
  const total = matches.length;
  const truncated = total > RESULT_LIMIT;
  const shown = matches.slice(0, RESULT_LIMIT);
  if (shown.length === 0) return empty(run.exitCode);

  const lines = [truncated ? `Found ${total} matches (showing first ${RESULT_LIMIT})` : `Found ${total} matches`];
  const files: GrepFileMatch[] = [];
  for (const m of shown) {
    let file = files.at(-1);
    if (file === undefined || file.path !== m.path) {
      if (file !== undefined) lines.push("");
      file = { path: m.path, matches: [] };
      files.push(file);
      lines.push(`${m.path}:`);
    }
    lines.push(`  Line ${m.line}: ${m.text.length > MAX_LINE_LENGTH ? `${m.text.slice(0, MAX_LINE_LENGTH)}...` : m.text}`);
    file.matches.push({ line_number: m.line, content: m.text });
  }
  if (truncated) lines.push("", `(Results truncated: showing ${RESULT_LIMIT} of ${total} matches. Consider using a more specific path or pattern.)`);
  if (run.exitCode === 2) lines.push("", "(Some paths were inaccessible and skipped)");
  const text = lines.join("\n");
  return {
    output: { type: "GrepSearch", stdout: text, stderr: run.stderr, exit_code: 0, match_count: total, file_matches: files },
    promptText: text,
    truncated: truncated || run.truncatedByBytes,
  };
}
