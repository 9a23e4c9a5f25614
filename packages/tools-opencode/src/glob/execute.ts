/**
 * Runs one `OpenCode:glob` call (spec §4.14): `rg --files` with the pattern as a glob, hidden files
 * included, `.git/` skipped, inside the checked search root; newest first, at most 100 paths.
 */
import type { ToolContext, ToolResult } from "@grok-tools/runtime";
import { resolveModelPath } from "@grok-tools/runtime/fs";
import { SearchRootMissing, runSearch } from "../shared/ripgrep.js";
import type { GlobInput, TextOutput } from "./schema.js";

/** Paths returned at most. */
export const RESULT_LIMIT = 100;

/** Lists the matching files. */
export async function runGlob(input: GlobInput, ctx: ToolContext): Promise<ToolResult<TextOutput>> {
  const searchDir = resolveModelPath(ctx.cwd, input.path ?? "");
  let stdout: string;
  let truncated = false;
  try {
    // --sortr=modified gives the reference's newest-first order, and one deterministic order for ties.
    const run = await runSearch(ctx, searchDir, input.path ?? searchDir, (at) => [
      "--files",
      "--glob=!.git/*",
      "--hidden",
      "--sortr=modified",
      "--glob",
      input.pattern,
      "--",
      at,
    ]);
    stdout = run.stdout;
    truncated = run.truncatedByBytes;
  } catch (error) {
    if (!(error instanceof SearchRootMissing)) throw error;
    stdout = "";
  }
  const paths: string[] = [];
  for (const line of stdout.split("\n")) {
    const p = line.trim();
    if (p === "") continue;
    if (paths.length >= RESULT_LIMIT) {
      truncated = true;
      break;
    }
    paths.push(p);
  }
  let text: string;
  if (paths.length === 0) {
    text = "No files found";
  } else {
    const lines = [...paths];
    if (truncated)
      lines.push("", `(Results are truncated: showing first ${RESULT_LIMIT} results out of more. Use a more specific path or pattern to narrow results.)`);
    text = `<workspace_result workspace_path="${ctx.cwd}">\n${lines.join("\n")}\n</workspace_result>`;
  }
  return { output: { type: "Text", text }, promptText: text, truncated };
}
