/**
 * Runs ripgrep for hashline_grep inside a checked search root (the runtime's `openSearchRoot`, so a
 * search never reads outside the session's roots) through the runtime's one ripgrep runner
 * (`runRipgrep`: byte cap on stdout, wall-clock timeout, cancellation, the process group killed),
 * and turns its outcome into this package's errors. Knows nothing of the tools' formats.
 */
import { rgPath } from "@vscode/ripgrep";
import { ErrorCode, ToolError, type ToolContext } from "@grok-tools/runtime";
import { errnoCode, openSearchRoot, ripgrepPath, runRipgrep, type RipgrepRun, type SearchRoot } from "@grok-tools/runtime/fs";

/** Wall-clock limit of one search. */
export const SEARCH_TIMEOUT_MS = 30_000;

/** One finished ripgrep run; paths in `stdout` are shown under `shownAs` (see {@link runSearch}). */
export interface SearchRun {
  stdout: string;
  stderr: string;
  exitCode: number;
  truncatedByBytes: boolean;
}

/** The search root was missing (ENOENT) or unreadable: the caller decides what the model sees. */
export class SearchRootMissing extends Error {}

/**
 * Opens `absPath` as a search root (PERMISSION_DENIED outside the roots) and runs ripgrep there with
 * `args(pathArgument)`; the printed paths are rewritten to start with `absPath`.
 */
export async function runSearch(
  ctx: ToolContext,
  absPath: string,
  displayPath: string,
  args: (pathArgument: string) => string[],
  shownAs: string = absPath,
): Promise<SearchRun> {
  let root: SearchRoot;
  try {
    root = await openSearchRoot(ctx.session, absPath, { displayPath, shownAs });
  } catch (error) {
    if (ToolError.is(error)) throw error;
    if (errnoCode(error) === "ENOENT" || errnoCode(error) === "ENOTDIR") throw new SearchRootMissing(absPath);
    throw new ToolError(ErrorCode.EXECUTION_FAILED, `Cannot search ${displayPath}: ${(error as Error).message}`, { filePath: displayPath });
  }
  try {
    const launch = await root.launch(ripgrepPath(rgPath), args(root.pathArgument));
    // The runner's default stdout cap is the reference's 5 MB, the limit these tools promise.
    const run = searchRunOf(await runRipgrep(launch, { signal: ctx.signal, timeoutMs: SEARCH_TIMEOUT_MS }));
    const arg = root.pathArgument;
    const stdout =
      root.kind === "dir"
        ? root.rewriteOutput(run.stdout)
        : run.stdout
            .split("\n")
            .map((line) => (line === arg || line.startsWith(`${arg}:`) ? shownAs + line.slice(arg.length) : line))
            .join("\n");
    return { ...run, stdout };
  } finally {
    await root.close();
  }
}

/** The runner's outcome as this package's {@link SearchRun}, or the ToolError the model sees. */
function searchRunOf(run: RipgrepRun): SearchRun {
  switch (run.kind) {
    case "done":
      return {
        stdout: run.stdout.toString("utf8"),
        stderr: run.stderr.toString("utf8"),
        // A kill by a signal has no exit code; -1 keeps it apart from rg's own 0, 1 and 2.
        exitCode: run.exitCode ?? -1,
        truncatedByBytes: run.stdoutTruncated,
      };
    case "timeout":
      throw new ToolError(ErrorCode.TIMEOUT, `rg timed out after ${SEARCH_TIMEOUT_MS / 1000} seconds`, {
        suggestion: "Search a smaller folder or use a more specific pattern.",
      });
    case "cancelled":
      throw new ToolError(ErrorCode.CANCELLED, "The search was cancelled.");
    case "spawn_error":
      throw new ToolError(ErrorCode.EXECUTION_FAILED, `Error spawning rg: ${run.error.message}`);
  }
}
