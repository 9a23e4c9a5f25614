/**
 * Runs ripgrep with a line and byte budget: reads stdout until EOF, 5 MB, or one line past the head
 * limit (so an exact fit is not reported as truncated), then kills rg. Also enforces the wall-clock
 * timeout and cancellation. Knows nothing of the tool's formatting.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { readFileSync } from "node:fs";
import { rgPath } from "@vscode/ripgrep";
import { type SearchLaunch } from "@grok-tools/runtime/fs";

/** Hard cap on bytes read from ripgrep's stdout. */
export const MAX_STDOUT_BYTES = 5_000_000;
/** Cap on bytes read from ripgrep's stderr. */
const MAX_STDERR_BYTES = 1_000_000;
/** How long to wait for one more byte after the budget is full, to tell an exact fit from overflow. */
const EXACT_FIT_PROBE_TIMEOUT_MS = 100;
/** Wall-clock timeout of a search. */
export const GREP_TIMEOUT_MS = 20_000;
/** Wall-clock timeout under WSL, whose file system is several times slower. */
export const GREP_TIMEOUT_WSL_MS = 60_000;

/** The ripgrep binary: `RG_BIN_PATH` when set, else the one bundled with `@vscode/ripgrep`. */
export function ripgrepPath(): string {
  const override = process.env.RG_BIN_PATH;
  return override !== undefined && override !== "" ? override : rgPath;
}

let wslCache: boolean | undefined;
/** Whether this process runs under WSL. */
export function isWsl(): boolean {
  if (wslCache === undefined) {
    try {
      wslCache = /microsoft/i.test(readFileSync("/proc/version", "utf8"));
    } catch {
      wslCache = false;
    }
  }
  return wslCache;
}

/** The outcome of one ripgrep run. */
export type RipgrepRun =
  | { kind: "done"; stdout: Buffer; stdoutTruncated: boolean; stderr: Buffer; exitCode: number }
  | { kind: "timeout" }
  | { kind: "cancelled" }
  | { kind: "spawn_error"; message: string };

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

/** Runs ripgrep as `launch` says (see the runtime's `SearchRoot`) and reads at most `maxLines` complete lines of stdout. */
export function runRipgrep(launch: SearchLaunch, maxLines: number, timeoutMs: number, signal: AbortSignal): Promise<RipgrepRun> {
  return new Promise((resolve) => {
    let settled = false;
    const child = spawn(launch.file, launch.args, {
      stdio: ["ignore", "pipe", "pipe", ...launch.extraFds],
      ...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
    }) as ChildProcessByStdio<null, Readable, Readable>;
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
    const kill = (): void => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    };
    const maybeDone = (): void => {
      if (!stdoutEnded || !stderrEnded || exitCode === undefined) return;
      finish({
        kind: "done",
        stdout: Buffer.concat(stdoutChunks),
        stdoutTruncated,
        stderr: Buffer.concat(stderrChunks),
        // Stopping at the budget kills rg; that run counts as a success.
        exitCode: stdoutTruncated ? 0 : (exitCode ?? -1),
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
    const timer = setTimeout(() => {
      kill();
      finish({ kind: "timeout" });
    }, timeoutMs);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });

    child.on("error", (error) => {
      finish({ kind: "spawn_error", message: error.message });
    });
    child.stdout.on("data", (chunk: Buffer) => {
      if (capHit) {
        // Data after a full budget: the result overflows.
        if (chunk.length > 0) stopAtBudget();
        return;
      }
      const room = MAX_STDOUT_BYTES - stdoutBytes;
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
    child.on("close", (code) => {
      exitCode = code;
      stdoutEnded = true;
      stderrEnded = true;
      maybeDone();
    });
  });
}
