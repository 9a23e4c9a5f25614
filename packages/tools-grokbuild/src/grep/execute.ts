/**
 * `grep` execution: resolve and confine the search path, build the ripgrep command (the pattern
 * always after `-e`, so it can never be read as a flag), run it within the budgets and map the
 * outcome to a result or a D1 error. ripgrep starts inside the checked search folder with
 * relative paths (or is handed a checked file as a descriptor), so a folder swapped for a link
 * during the call is not searched (issue #12 item 6); paths are shown as the caller spelled them.
 */
import { ErrorCode, ToolError, type ToolContext } from "@grok-tools/runtime";
import { rgPath } from "@vscode/ripgrep";
import {
  assertInsideRoots,
  errnoCode,
  openSearchRoot,
  resolveModelPath,
  resolveRealPath,
  ripgrepPath,
  runRipgrep,
  rustIoErrorText,
  statPathConfined,
  type RipgrepRun,
  type SearchRoot,
} from "@grok-tools/runtime/fs";
import { isWsl } from "@grok-tools/runtime/helpers";
import { DEFAULT_MAX_CHARS_PER_LINE, finalizeGrep, type GrepFormatConfig } from "./format.js";
import { checkGrepArguments } from "./input-check.js";
import { OUTPUT_MODES, type GrepInput, type GrepOutput, type GrepParams, type OutputMode } from "./schema.js";

/** Wall-clock timeout of a search. */
export const GREP_TIMEOUT_MS = 20_000;
/** Wall-clock timeout under WSL, whose file system is several times slower. */
export const GREP_TIMEOUT_WSL_MS = 60_000;
/** Default head limit in content mode. */
export const CONTENT_LINE_DEFAULT = 200;
/** Ceiling of an explicit head limit in content mode. */
export const CONTENT_LINE_LIMIT = 2_000;
/** Default head limit in files and count modes. */
export const FILE_COUNT_DEFAULT = 500;
/** Ceiling of an explicit head limit in files and count modes. */
export const FILE_COUNT_LIMIT = 10_000;

/** The effective line/entry budget: `head_limit` (or the mode's default) clamped to the mode's cap. */
export function effectiveHeadLimit(headLimit: number | undefined, mode: OutputMode): number {
  const [fallback, cap] = mode === "content" ? [CONTENT_LINE_DEFAULT, CONTENT_LINE_LIMIT] : [FILE_COUNT_DEFAULT, FILE_COUNT_LIMIT];
  return Math.min(headLimit ?? fallback, cap);
}

function outputModeOf(input: GrepInput): OutputMode {
  const raw = (input as Record<string, unknown>).output_mode;
  if (raw === undefined || raw === null) return "content";
  if (typeof raw === "string" && (OUTPUT_MODES as readonly string[]).includes(raw)) return raw as OutputMode;
  throw ToolError.invalidInput(`unknown variant \`${String(raw)}\`, expected one of \`content\`, \`files_with_matches\`, \`count\``, {
    details: { field: "output_mode" },
  });
}

function nonNegative(value: number | undefined, name: string): number | undefined {
  if (value === undefined || value >= 0) return value;
  throw ToolError.invalidInput(`invalid value: integer \`${value}\`, expected usize`, { details: { field: name } });
}

/** The ripgrep arguments of a call (spec §4.5 order). */
export function ripgrepArgs(input: GrepInput, mode: OutputMode, searchPath: string): string[] {
  const args = ["--heading", "--with-filename", "--line-number", "--color=never", "--max-columns", "1000", "--max-columns-preview"];
  if (input["-i"] === true) args.push("--ignore-case");
  if (input.glob) args.push("--glob", input.glob);
  if (input.type) args.push("--type", input.type);
  if (input.multiline === true) args.push("-U", "--multiline-dotall");
  const context = input["-C"];
  const before = input["-B"];
  const after = input["-A"];
  if (context !== undefined && context > 0) args.push("-C", String(context));
  if (before !== undefined && before > 0) args.push("-B", String(before));
  if (after !== undefined && after > 0) args.push("-A", String(after));
  if (mode === "files_with_matches") args.push("-l");
  else if (mode === "count") args.push("-c");
  args.push("-e", input.pattern, searchPath, "--max-filesize", "5M");
  return args;
}

/** The not-found display path: the cwd-relative part joined back onto the cwd (`.` parts dropped). */
function notFoundDisplay(cwd: string, workdir: string): string {
  const parts = workdir.split("/").filter((part, i) => i === 0 || (part !== "" && part !== "."));
  return parts.join("/") || cwd;
}

/** FILE_NOT_FOUND for a search path that does not exist, with the reference's text. */
function notFound(cwd: string, workdir: string, given: string): ToolError {
  const message = `Error: ${notFoundDisplay(cwd, workdir)} does not exist.`;
  return new ToolError(ErrorCode.FILE_NOT_FOUND, message, {
    filePath: given,
    suggestion: "Check the path, or search from the workspace root.",
    details: { type: "GrepSearch", stdout: message, stderr: "", exit_code: 2, match_count: 0, file_matches: [] },
  });
}

/** Opens and checks the search root (it may have changed since the first checks). */
async function openRoot(ctx: ToolContext<GrepParams>, workdir: string, given: string | undefined): Promise<SearchRoot> {
  try {
    return await openSearchRoot(ctx.session, workdir, { displayPath: given ?? workdir, shownAs: workdir });
  } catch (error) {
    if (ToolError.is(error)) throw error;
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") throw notFound(ctx.cwd, workdir, given ?? workdir);
    throw new ToolError(
      code === "EACCES" || code === "EPERM" ? ErrorCode.PERMISSION_DENIED : ErrorCode.EXECUTION_FAILED,
      `Error calling tool: ${rustIoErrorText(error)}`,
      {
        filePath: given ?? workdir,
      },
    );
  }
}

function toOutput(run: ReturnType<typeof finalizeGrep>): GrepOutput {
  return {
    type: "GrepSearch",
    stdout: run.stdout,
    stderr: run.stderr,
    exit_code: run.exitCode,
    match_count: run.matchCount,
    file_matches: run.fileMatches,
  };
}

/** Runs `grep`. */
export async function executeGrep(input: GrepInput, ctx: ToolContext<GrepParams>): Promise<{ output: GrepOutput; promptText: string; truncated?: boolean }> {
  checkGrepArguments(input, ctx);
  const mode = outputModeOf(input);
  for (const key of ["-A", "-B", "-C", "head_limit"] as const) nonNegative(input[key], key);
  const cwdDisplay = ctx.cwd;
  const workdir = resolveModelPath(ctx.cwd, input.path ?? "");
  if (input.path !== undefined && input.path !== null) {
    const missing = await statPathConfined(ctx.session, workdir, input.path).then(
      () => false,
      (error: unknown) => {
        if (ToolError.is(error)) throw error;
        return errnoCode(error) === "ENOENT";
      },
    );
    if (missing) throw notFound(ctx.cwd, workdir, input.path);
  }
  // The path string first, so that in the ordinary case nothing outside is even opened; what
  // ripgrep is started on is checked again on its descriptor (openRoot), which is what holds in a race.
  const real = await resolveRealPath(workdir).catch(() => workdir);
  await assertInsideRoots(ctx.session, real, input.path ?? workdir);
  const config: GrepFormatConfig = {
    outputMode: mode,
    effectiveHeadLimit: effectiveHeadLimit(input.head_limit, mode),
    maxCharsPerLine: ctx.params.max_chars_per_line ?? DEFAULT_MAX_CHARS_PER_LINE,
    // `max_output_bytes` param, else 40 000: the limit its spec declares (TruncationConfig does not apply).
    maxOutputBytes: ctx.outputLimit,
    cwdDisplay,
  };
  const timeoutMs = isWsl() ? GREP_TIMEOUT_WSL_MS : GREP_TIMEOUT_MS;
  const root = await openRoot(ctx, workdir, input.path ?? undefined);
  let run: RipgrepRun;
  try {
    const launch = await root.launch(ripgrepPath(rgPath), ripgrepArgs(input, mode, root.pathArgument));
    // One line past the head limit, so that an exact fit is not reported as truncated.
    run = await runRipgrep(launch, { maxLines: config.effectiveHeadLimit + 1, timeoutMs, signal: ctx.signal });
  } finally {
    await root.close();
  }
  if (run.kind === "cancelled") throw new ToolError(ErrorCode.CANCELLED, "Tool call was cancelled");
  if (run.kind === "timeout") {
    const seconds = timeoutMs / 1000;
    throw new ToolError(
      ErrorCode.TIMEOUT,
      `Ripgrep search timed out after ${seconds} seconds. The search may have matched files but did not complete in time. Try searching a more specific path or pattern.`,
      { suggestion: "Search a more specific path or pattern." },
    );
  }
  if (run.kind === "spawn_error") {
    throw new ToolError(ErrorCode.EXECUTION_FAILED, `Error calling tool: ${run.error.message}`, {
      suggestion: "Check that ripgrep is installed, or set RG_BIN_PATH to its path.",
    });
  }
  const stdout = root.rewriteOutput(run.stdout.toString("utf8"));
  const result = finalizeGrep(stdout, run.stdoutTruncated, root.rewriteOutput(run.stderr.toString("utf8")), run.exitCode ?? -1, config);
  const output = toOutput(result);
  if (result.exitCode > 1 || result.exitCode < 0) {
    const badInput = /regex parse error|error parsing glob|unrecognized file type|unrecognized flag/i.test(result.stderr);
    throw new ToolError(badInput ? ErrorCode.INVALID_INPUT : ErrorCode.EXECUTION_FAILED, result.stdout, {
      suggestion: badInput ? "Fix the pattern, glob or type and search again." : "Retry, or search a narrower path.",
      details: output,
    });
  }
  return { output, promptText: result.stdout, truncated: result.truncated };
}
