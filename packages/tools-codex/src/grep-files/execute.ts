/**
 * Runs Codex:grep_files: validates the arguments, confines the search path, runs ripgrep, and maps
 * its outcome (failures become ToolErrors with the reference's texts, decision D1). ripgrep starts
 * inside the checked search folder with relative paths (issue #12 item 6); the paths it prints are
 * shown as the caller spelled the folder.
 */
import { ErrorCode, ToolError, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { MAX_ARGUMENT_BYTES, rejectNulByte, rejectOversizedArgument } from "@grok-tools/runtime/helpers";
import { rgPath } from "@vscode/ripgrep";
import { errnoCode, openSearchRoot, ripgrepPath, runRipgrep, rustIoErrorText, type RipgrepRun, type SearchRoot } from "@grok-tools/runtime/fs";
import { confinedTarget } from "../shared/file-access.js";
import { joinLikeRust } from "../shared/rust-path.js";
import { decodeLossy, trimRust } from "../shared/rust-text.js";
import { RG_MAX_STDOUT_BYTES, RG_TIMEOUT_MS, parseResults, ripgrepArgs } from "./ripgrep.js";
import type { CodexGrepFilesInput, CodexGrepFilesOutput } from "./schema.js";

/** Paths returned when the caller gives no limit. */
export const DEFAULT_LIMIT_FILES = 100;
/** The most paths ever returned. */
export const MAX_LIMIT_FILES = 2000;

/** Lists the files whose contents match a regular expression, most recently modified first. */
export async function executeGrepFiles(input: CodexGrepFilesInput, ctx: ToolContext): Promise<ToolResult<CodexGrepFilesOutput>> {
  const pattern = trimRust(input.pattern);
  if (pattern === "") throw ToolError.invalidInput("pattern must not be empty");
  // ripgrep's command line carries no NUL byte and no argument over 64 KiB (issue 23.6).
  rejectNulByte(pattern, "pattern", "To match a NUL byte, write \\x00 in the regular expression.");
  rejectNulByte(input.include, "include");
  rejectNulByte(input.path, "path");
  rejectOversizedArgument(pattern, "pattern", MAX_ARGUMENT_BYTES, "Search for a shorter, distinctive part of the text.");
  rejectOversizedArgument(input.include, "include");
  rejectOversizedArgument(input.path, "path");
  const requested = input.limit ?? DEFAULT_LIMIT_FILES;
  if (requested === 0) throw ToolError.invalidInput("limit must be greater than zero");
  const limit = Math.min(requested, MAX_LIMIT_FILES);

  const given = input.path ?? "";
  const searchPath = given === "" ? ctx.cwd : joinLikeRust(ctx.cwd, given);
  await confinedTarget(ctx.session, searchPath);
  let root: SearchRoot;
  try {
    root = await openSearchRoot(ctx.session, searchPath);
  } catch (error) {
    if (ToolError.is(error)) throw error;
    const code = errnoCode(error);
    throw new ToolError(
      code === "ENOENT" || code === "ENOTDIR" ? ErrorCode.FILE_NOT_FOUND : ErrorCode.PERMISSION_DENIED,
      `unable to access \`${searchPath}\`: ${rustIoErrorText(error)}`,
      {
        filePath: searchPath,
        details: { path: searchPath, ...(code === undefined ? {} : { errno: code }) },
      },
    );
  }
  const include = input.include === undefined || input.include === null ? undefined : trimRust(input.include) || undefined;

  let outcome: RipgrepRun;
  try {
    const launch = await root.launch(ripgrepPath(rgPath), ripgrepArgs(pattern, include, root.pathArgument));
    outcome = await runRipgrep(launch, { signal: ctx.signal, timeoutMs: RG_TIMEOUT_MS, maxStdoutBytes: RG_MAX_STDOUT_BYTES });
  } finally {
    await root.close();
  }
  switch (outcome.kind) {
    case "timeout":
      throw new ToolError(ErrorCode.TIMEOUT, "rg timed out after 30 seconds", { suggestion: "Narrow the search with `path` or `include`." });
    case "cancelled":
      throw new ToolError(ErrorCode.CANCELLED, "rg was cancelled");
    case "spawn_error":
      throw new ToolError(ErrorCode.EXECUTION_FAILED, `failed to launch rg: ${outcome.error.message}. Ensure ripgrep is installed and on PATH.`, {
        cause: outcome.error,
      });
    case "done":
      break;
  }
  if (outcome.status === "failed") {
    throw new ToolError(ErrorCode.EXECUTION_FAILED, `rg failed: ${root.rewriteOutput(decodeLossy(outcome.stderr))}`, {
      details: { exit_code: outcome.exitCode },
    });
  }
  // Past the byte cap the last line may be cut: only complete lines are paths.
  const stdout = outcome.stdoutTruncated ? outcome.stdout.subarray(0, outcome.stdout.lastIndexOf(0x0a) + 1) : outcome.stdout;
  const files = outcome.status === "matched" ? parseResults(stdout, limit).map((file) => root.rewriteOutput(file)) : [];
  if (files.length === 0) return { output: { type: "CodexGrepFiles", NoMatches: "No matches found." }, promptText: "No matches found." };
  const content = files.join("\n");
  return { output: { type: "CodexGrepFiles", Matches: { content, file_count: files.length } }, promptText: content };
}
