/**
 * Runs ripgrep for hashline_grep inside a checked search root (the runtime's `openSearchRoot`, so a
 * search never reads outside the session's roots): a byte cap on stdout, a wall-clock timeout and
 * cancellation. Knows nothing of the tools' formats.
 * TODO(finish14): switch to the runtime's public ripgrep runner once it lands; until then this is
 * the package's own small runner over the public `SearchRoot.launch`.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { rgPath } from "@vscode/ripgrep";
import { ErrorCode, ToolError, type ToolContext } from "@grok-tools/runtime";
import { errnoCode, openSearchRoot, type SearchRoot } from "@grok-tools/runtime/fs";

/** Hard cap on bytes read from ripgrep's stdout (the reference's 5 MB). */
export const MAX_STDOUT_BYTES = 5_000_000;
/** Cap on bytes kept of ripgrep's stderr. */
const MAX_STDERR_BYTES = 1_000_000;
/** Wall-clock limit of one search. */
export const SEARCH_TIMEOUT_MS = 30_000;

/** The ripgrep binary: `RG_BIN_PATH` when set, else the one bundled with `@vscode/ripgrep`. */
export function ripgrepPath(): string {
  const override = process.env.RG_BIN_PATH;
  return override !== undefined && override !== "" ? override : rgPath;
}

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
    const launch = await root.launch(ripgrepPath(), args(root.pathArgument));
    const run = await spawnCapped(launch.file, launch.args, launch.cwd, launch.extraFds, ctx.signal);
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

function spawnCapped(file: string, args: string[], cwd: string | undefined, extraFds: number[], signal: AbortSignal): Promise<SearchRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe", ...extraFds], ...(cwd === undefined ? {} : { cwd }) }) as ChildProcessByStdio<
      null,
      Readable,
      Readable
    >;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let truncatedByBytes = false;
    let settled = false;
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    };
    const fail = (error: ToolError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      kill();
      reject(error);
    };
    const onAbort = () => fail(new ToolError(ErrorCode.CANCELLED, "The search was cancelled."));
    const timer = setTimeout(
      () =>
        fail(
          new ToolError(ErrorCode.TIMEOUT, `rg timed out after ${SEARCH_TIMEOUT_MS / 1000} seconds`, {
            suggestion: "Search a smaller folder or use a more specific pattern.",
          }),
        ),
      SEARCH_TIMEOUT_MS,
    );
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      if (truncatedByBytes) return;
      if (outBytes + chunk.length > MAX_STDOUT_BYTES) {
        out.push(chunk.subarray(0, MAX_STDOUT_BYTES - outBytes));
        outBytes = MAX_STDOUT_BYTES;
        truncatedByBytes = true;
        kill();
        return;
      }
      out.push(chunk);
      outBytes += chunk.length;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (errBytes >= MAX_STDERR_BYTES) return;
      err.push(chunk.subarray(0, MAX_STDERR_BYTES - errBytes));
      errBytes += Math.min(chunk.length, MAX_STDERR_BYTES - errBytes);
    });
    child.on("error", (error) => fail(new ToolError(ErrorCode.EXECUTION_FAILED, `Error spawning rg: ${error.message}`)));
    child.on("close", (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      // A run stopped at the byte cap counts as a success with what was read.
      const exitCode = truncatedByBytes ? 0 : (code ?? -1);
      resolve({ stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), exitCode, truncatedByBytes });
    });
  });
}
