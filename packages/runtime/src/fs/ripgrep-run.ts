/**
 * The one ripgrep runner every search tool shares: starts a {@link SearchLaunch} in its own process
 * group with no stdin, streams stdout within a line and byte budget, caps stderr, and ends on exit,
 * deadline or cancellation (the whole group is killed). It classifies ripgrep's exit status (0 match,
 * 1 none, anything else an error with stderr) and knows nothing of any tool's arguments or output.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import type { SearchLaunch } from "./search-root.js";

/** The variable that names a ripgrep binary to use instead of the bundled one. */
export const RIPGREP_PATH_ENV_VAR = "RG_BIN_PATH";
/** Default cap on bytes read from ripgrep's stdout. */
export const MAX_RIPGREP_STDOUT_BYTES = 5_000_000;
/** Cap on bytes kept of ripgrep's stderr. */
const MAX_STDERR_BYTES = 1_000_000;
/** How long to wait for one more byte after the budget is full, to tell an exact fit from overflow. */
const EXACT_FIT_PROBE_TIMEOUT_MS = 100;

/**
 * The ripgrep binary: `RG_BIN_PATH` when set and not empty, else `bundled` (the tool package passes
 * the path of the binary it ships, e.g. `rgPath` of `@vscode/ripgrep`).
 */
export function ripgrepPath(bundled: string, env: NodeJS.ProcessEnv = process.env): string {
  const override = env[RIPGREP_PATH_ENV_VAR];
  return override !== undefined && override !== "" ? override : bundled;
}

/** Options of {@link runRipgrep}. */
export interface RipgrepRunOptions {
  /** Aborting it kills the search; the run then ends as `cancelled`. */
  readonly signal: AbortSignal;
  /** Wall-clock deadline; the run then ends as `timeout`. */
  readonly timeoutMs: number;
  /** Stop (and kill ripgrep) after this many complete stdout lines; no line budget when omitted. */
  readonly maxLines?: number;
  /** Stop (and kill ripgrep) after this many stdout bytes, cut on a UTF-8 boundary ({@link MAX_RIPGREP_STDOUT_BYTES}). */
  readonly maxStdoutBytes?: number;
}

/**
 * How ripgrep's exit status reads: `matched` (0, or stopped at the budget, which only happens with
 * output), `no_match` (1), `failed` (2 or anything else, also a kill by a signal: see `stderr`).
 */
export type RipgrepStatus = "matched" | "no_match" | "failed";

/** The outcome of one ripgrep run. */
export type RipgrepRun =
  | {
      kind: "done";
      status: RipgrepStatus;
      /** What was read of stdout (all of it unless `stdoutTruncated`). */
      stdout: Buffer;
      /** The budget stopped the read (ripgrep was killed; the run counts as a success). */
      stdoutTruncated: boolean;
      /** At most 1 MB of stderr. */
      stderr: Buffer;
      /** ripgrep's exit code (0 when stopped at the budget), null when a signal ended it. */
      exitCode: number | null;
    }
  | { kind: "timeout" }
  | { kind: "cancelled" }
  | { kind: "spawn_error"; error: Error };

/** The status an exit code stands for. */
export function ripgrepStatus(exitCode: number | null): RipgrepStatus {
  return exitCode === 0 ? "matched" : exitCode === 1 ? "no_match" : "failed";
}

/** Largest prefix length of `bytes` that does not end inside a UTF-8 sequence. */
export function utf8BoundaryLength(bytes: Buffer): number {
  // Walk back over continuation bytes to the lead byte of the last sequence.
  let lead = bytes.length - 1;
  while (lead >= 0 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  if (lead < 0) return 0;
  const first = bytes[lead]!;
  const size = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return lead + size <= bytes.length ? bytes.length : lead;
}

/**
 * Runs ripgrep as `launch` says (see {@link SearchRoot.launch}) and reads its stdout until EOF or the
 * budget: `maxLines` complete lines (reading stops one line past a head limit, so an exact fit is
 * not reported as truncated when the caller asks for one more) or `maxStdoutBytes`. Never rejects.
 */
export function runRipgrep(launch: SearchLaunch, options: RipgrepRunOptions): Promise<RipgrepRun> {
  const { signal, timeoutMs } = options;
  const maxLines = options.maxLines ?? Number.POSITIVE_INFINITY;
  const maxStdoutBytes = options.maxStdoutBytes ?? MAX_RIPGREP_STDOUT_BYTES;
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve({ kind: "cancelled" });
      return;
    }
    // Its own process group, so that a wrapper (the search sandbox's shell) dies with what it started.
    const child = spawn(launch.file, launch.args, {
      stdio: ["ignore", "pipe", "pipe", ...launch.extraFds],
      detached: true,
      ...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
    }) as ChildProcessByStdio<null, Readable, Readable>;
    let settled = false;
    const stdoutChunks: Buffer[] = [];
    let stdoutBytes = 0;
    let lines = 0;
    let stdoutTruncated = false;
    let capHit = false;
    let probeTimer: NodeJS.Timeout | undefined;
    const stderrChunks: Buffer[] = [];
    let stderrBytes = 0;
    let stdoutEnded = false;
    let stderrEnded = false;
    let exitCode: number | null | undefined;

    const finish = (run: RipgrepRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (probeTimer) clearTimeout(probeTimer);
      signal.removeEventListener("abort", onAbort);
      resolve(run);
    };
    let closed = false;
    // The group, not only the leader: a member that outlived it may still hold stdout open.
    const kill = (): void => {
      if (closed) return;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const maybeDone = (): void => {
      if (!stdoutEnded || !stderrEnded || exitCode === undefined) return;
      // Stopping at the budget kills rg; that run counts as a success.
      const code = stdoutTruncated ? 0 : exitCode;
      finish({
        kind: "done",
        status: ripgrepStatus(code),
        stdout: Buffer.concat(stdoutChunks),
        stdoutTruncated,
        stderr: Buffer.concat(stderrChunks),
        exitCode: code,
      });
    };
    const stopAtBudget = (): void => {
      stdoutTruncated = true;
      kill();
      child.stdout.destroy();
      stdoutEnded = true;
      maybeDone();
    };
    const onAbort = (): void => {
      kill();
      finish({ kind: "cancelled" });
    };
    // One I/O poll before the deadline counts: after a stretch of synchronous work longer than
    // the rest of the deadline (hundreds of commands spawned at once on a busy machine), the timer
    // runs before the loop has polled, while a search that finished in time waits in its pipes (the
    // reliability suite's mixed load had greps answer TIMEOUT with their output unread).
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        kill();
        finish({ kind: "timeout" });
      });
    }, timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });

    child.on("error", (error) => finish({ kind: "spawn_error", error }));
    child.stdout.on("data", (chunk: Buffer) => {
      if (capHit) {
        // Data after a full budget: the result overflows.
        if (chunk.length > 0) stopAtBudget();
        return;
      }
      const room = maxStdoutBytes - stdoutBytes;
      const limited = chunk.length > room ? chunk.subarray(0, room) : chunk;
      let accepted = limited.length;
      let hitLines = false;
      for (let i = 0; i < limited.length; i++) {
        if (limited[i] === 0x0a && ++lines >= maxLines) {
          accepted = i + 1;
          hitLines = true;
          break;
        }
      }
      const hitBytes = !hitLines && limited.length < chunk.length;
      if (hitBytes) accepted = utf8BoundaryLength(limited.subarray(0, accepted));
      if (accepted > 0) {
        stdoutChunks.push(chunk.subarray(0, accepted));
        stdoutBytes += accepted;
      }
      if (!hitLines && !hitBytes) return;
      if (accepted < chunk.length) {
        stopAtBudget();
        return;
      }
      // The budget is exactly full: a short probe tells an exact fit (EOF) from overflow.
      capHit = true;
      probeTimer = setTimeout(stopAtBudget, EXACT_FIT_PROBE_TIMEOUT_MS);
    });
    child.stdout.on("end", () => {
      if (probeTimer) clearTimeout(probeTimer);
      stdoutEnded = true;
      maybeDone();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderrBytes >= MAX_STDERR_BYTES) return;
      const part = chunk.subarray(0, MAX_STDERR_BYTES - stderrBytes);
      stderrChunks.push(part);
      stderrBytes += part.length;
    });
    child.stderr.on("end", () => {
      stderrEnded = true;
      maybeDone();
    });
    // The exit, not the close (which comes a turn later, after the pipes' handles close), so that
    // a run read in the poll before its deadline is done by then.
    child.on("exit", (code) => {
      exitCode = code;
      maybeDone();
    });
    child.on("close", (code) => {
      closed = true;
      exitCode = code;
      stdoutEnded = true;
      stderrEnded = true;
      maybeDone();
    });
  });
}
