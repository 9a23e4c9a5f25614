/**
 * Runs ripgrep for Codex:grep_files: file names only, newest first, with a 30 s deadline. The child
 * gets its own process group and no stdin, and the whole group is killed on timeout or cancellation.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { type SearchLaunch } from "@grok-tools/runtime/fs";
import { rgPath } from "@vscode/ripgrep";

/** How long ripgrep may run. */
export const RG_TIMEOUT_MS = 30_000;

/** The ripgrep binary: `RG_BIN_PATH` when set, else the one shipped by `@vscode/ripgrep`. */
export function ripgrepPath(): string {
  const override = process.env.RG_BIN_PATH;
  return override !== undefined && override !== "" ? override : rgPath;
}

/** What a ripgrep run ended with. */
export type RgOutcome =
  { kind: "exit"; code: number | null; stdout: Buffer; stderr: Buffer } | { kind: "timeout" } | { kind: "cancelled" } | { kind: "spawn_error"; error: Error };

/** The ripgrep arguments of a search (the pattern always goes through `--regexp`, so a leading `-` is safe). */
export function ripgrepArgs(pattern: string, include: string | undefined, searchPath: string): string[] {
  const args = ["--files-with-matches", "--sortr=modified", "--regexp", pattern, "--no-messages"];
  if (include !== undefined) args.push("--glob", include);
  args.push("--", searchPath);
  return args;
}

/** Runs ripgrep as `launch` says (see the runtime's `SearchRoot`) and waits for it, its deadline or `signal`. */
export function runRipgrep(launch: SearchLaunch, signal: AbortSignal, timeoutMs: number = RG_TIMEOUT_MS): Promise<RgOutcome> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve({ kind: "cancelled" });
      return;
    }
    const child = spawn(launch.file, launch.args, {
      ...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
      stdio: ["ignore", "pipe", "pipe", ...launch.extraFds],
      detached: true,
    }) as ChildProcessByStdio<null, Readable, Readable>;
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let settled = false;
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const finish = (outcome: RgOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    const onAbort = (): void => {
      killGroup();
      finish({ kind: "cancelled" });
    };
    const timer = setTimeout(() => {
      killGroup();
      finish({ kind: "timeout" });
    }, timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => finish({ kind: "spawn_error", error }));
    child.on("close", (code) => finish({ kind: "exit", code, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }));
  });
}

/** The first `limit` non-empty, valid UTF-8 lines of ripgrep's output. */
export function parseResults(stdout: Buffer, limit: number): string[] {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const results: string[] = [];
  let start = 0;
  while (start <= stdout.length && results.length < limit) {
    let end = stdout.indexOf(0x0a, start);
    if (end === -1) end = stdout.length;
    const line = stdout.subarray(start, end);
    start = end + 1;
    if (line.length === 0) continue;
    try {
      results.push(decoder.decode(line));
    } catch {
      // The reference skips paths that are not valid UTF-8.
    }
  }
  return results;
}
