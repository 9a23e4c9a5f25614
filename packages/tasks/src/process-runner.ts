/**
 * Spawns one shell command as a contained process tree and collects its output: stdout
 * and stderr merged on one pipe, streamed into a head/tail buffer and a capped log file,
 * with backpressure so a command printing gigabytes never grows the server's memory.
 * Kills take the whole tree: SIGTERM, then SIGKILL after a grace period (decision D4).
 *
 * Uses node:child_process directly rather than execa: we need a raw detached process
 * group, a single merged pipe with manual backpressure into a file, and no buffering or
 * promise wrapping of the output, which are exactly the parts execa adds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, openSync, type WriteStream } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { wholeNumberFromEnv } from "@grok-tools/runtime/helpers";
import { OutputBuffer } from "./output-buffer.js";
import { detectProcessIsolation, type ProcessIsolation } from "./process-isolation.js";
import type { LauncherExit, SpareLauncher } from "./spare-launcher.js";
import { nextIoTurn, settlesWithin } from "./settles-within.js";
import { createSocketPair } from "./socket-pair.js";
import type { Readable } from "node:stream";

/** SIGTERM to SIGKILL grace (the reference's `SIGTERM_GRACE`). */
export const KILL_GRACE_MS = 1_000;
/** How long output may keep flowing after the command exits before the pipe is abandoned. */
export const DRAIN_TIMEOUT_MS = 2_000;
/** How long to wait for a SIGKILLed tree before reporting it abandoned. */
export const REAP_GRACE_MS = 5_000;
/** The log file keeps at most this much (the reference truncates to 64 MiB after exit). */
export const MAX_LOG_FILE_BYTES = 64 * 1024 * 1024;
/**
 * Output queued for the log file before the command's pipe is paused. Above one pipe read (64 KiB):
 * with the stream's default (16 KiB) every read paused the pipe until its write was done, so a
 * command printing fast waited a thread-pool round trip per 64 KiB (issue #18).
 */
const LOG_WRITE_BUFFER_BYTES = 1024 * 1024;
/** A command that prints more than this is killed with signal `output_limit` (default of `GROK_MAX_OUTPUT_FILE_BYTES`). */
export const MAX_OUTPUT_BYTES_BEFORE_KILL = 5 * 1024 * 1024 * 1024;

/**
 * The output kill threshold now, as the reference reads it: `GROK_MAX_OUTPUT_FILE_BYTES` when it is
 * a whole number above zero, else {@link MAX_OUTPUT_BYTES_BEFORE_KILL}. Read per command, like the
 * other `GROK_*` caps, so a change of the server's environment applies to the next command.
 */
export function maxOutputFileBytes(env: NodeJS.ProcessEnv = process.env): number {
  return wholeNumberFromEnv("GROK_MAX_OUTPUT_FILE_BYTES", MAX_OUTPUT_BYTES_BEFORE_KILL, 1, env);
}

/** The environment variable carrying a per-process marker, used to find escaped descendants. */
export const PROCESS_MARKER_ENV = "GROK_TOOLS_PROCESS_MARKER";

/** How a command ended. `signal` is `signal N` for a kill by signal N, else null. */
export interface ProcessExit {
  exitCode: number | null;
  signal: string | null;
}

/** What to run and where its output goes. */
export interface SpawnCommandOptions {
  /** The command line given to `<shell> -c`. */
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** The log file that receives the whole output (capped at `logCapBytes`). */
  logFile: string;
  /** Character budget of the in-memory head/tail view. */
  outputLimitChars: number;
  logCapBytes?: number;
  /** Output past this many bytes calls `onOutputLimit` (the task kills the command). */
  outputKillBytes?: number;
  isolation?: ProcessIsolation;
  /** `bash` (default) or an absolute path; zsh gets `-o nonomatch`. */
  shell?: string;
  /** Called with each chunk of output as it is read (stdout and stderr merged), e.g. to stream it live. */
  onOutput?: (chunk: Buffer) => void;
  onOutputLimit?: () => void;
  /**
   * The session's pre-started isolated launcher: used when it matches this isolation and
   * environment, else (or when it died) the command is spawned cold, with the same result.
   */
  launcher?: SpareLauncher;
}

/** The shell the reference uses: zsh when `$SHELL` is zsh, else bash. */
export function resolveShell(envShell: string | undefined = process.env.SHELL): string[] {
  if (envShell && path.basename(envShell) === "zsh" && existsSync(envShell)) return [envShell, "-o", "nonomatch"];
  return ["bash"];
}

const SIGNAL_NUMBERS = os.constants.signals as Record<string, number>;

/** A spawned command. */
export class RunningProcess {
  readonly output: OutputBuffer;
  readonly logFile: string;
  /** Resolves once the command runs, rejects when it cannot be spawned. */
  readonly spawned: Promise<void>;
  /** Resolves when the leader exited, the tree is gone, the pipe drained and the log flushed. */
  readonly done: Promise<ProcessExit>;
  /** The leader's pid: it leads the command's process group. */
  #pid: number | undefined;
  /** The read end of the command's merged stdout and stderr. */
  #stdout: Readable | undefined;
  #isolation: ProcessIsolation;
  #marker: string = randomUUID();
  #totalBytes = 0;
  #logBytes = 0;
  #exit: ProcessExit | undefined;
  #finished = false;
  #killing: Promise<void> | undefined;

  private constructor(options: SpawnCommandOptions, log: WriteStream | undefined) {
    this.output = new OutputBuffer(options.outputLimitChars);
    this.logFile = options.logFile;
    this.#isolation = options.isolation ?? detectProcessIsolation();
    let resolveSpawned!: () => void;
    let rejectSpawned!: (error: Error) => void;
    this.spawned = new Promise((resolve, reject) => {
      resolveSpawned = resolve;
      rejectSpawned = reject;
    });
    this.spawned.catch(() => undefined);
    this.done = this.#run(options, log, resolveSpawned, rejectSpawned);
    this.done.catch(() => undefined);
  }

  /** Spawns `options.command`; the log folder is created first. */
  static async start(options: SpawnCommandOptions): Promise<RunningProcess> {
    let log: WriteStream | undefined;
    try {
      // Synchronous on purpose: two local metadata syscalls cost microseconds, while a trip
      // through the thread pool per step costs a wake-up each on a busy machine. No fsync:
      // the log is a convenience copy, not state.
      mkdirSync(path.dirname(options.logFile), { recursive: true });
      log = createWriteStream("", { fd: openSync(options.logFile, "w"), highWaterMark: LOG_WRITE_BUFFER_BYTES });
      log.on("error", () => undefined);
    } catch {
      log = undefined;
    }
    const running = new RunningProcess(options, log);
    await running.spawned;
    return running;
  }

  /** The leader's pid (the wrapper when namespaces are used). */
  get pid(): number | undefined {
    return this.#pid;
  }

  /** Bytes the command has printed so far. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Whether the leader has exited (output may still be draining). */
  get exited(): boolean {
    return this.#exit !== undefined;
  }

  get finished(): boolean {
    return this.#finished;
  }

  /** Kills the whole tree: SIGTERM, SIGKILL after `graceMs`; resolves when everything is over. */
  kill(graceMs: number = KILL_GRACE_MS): Promise<void> {
    if (this.#finished) return Promise.resolve();
    this.#killing ??= (async () => {
      await this.#signalTree("SIGTERM");
      if (await settlesWithin(this.done, graceMs)) return;
      await this.#signalTree("SIGKILL");
      if (await settlesWithin(this.done, REAP_GRACE_MS)) return;
      this.#stdout?.destroy();
    })();
    return this.#killing;
  }

  async #run(
    options: SpawnCommandOptions,
    log: WriteStream | undefined,
    resolveSpawned: () => void,
    rejectSpawned: (error: Error) => void,
  ): Promise<ProcessExit> {
    const shell = options.shell ? (path.basename(options.shell) === "zsh" ? [options.shell, "-o", "nonomatch"] : [options.shell]) : resolveShell();
    const namespaced = this.#isolation.mode === "pid-namespace";
    const logCap = options.logCapBytes ?? MAX_LOG_FILE_BYTES;
    const killBytes = options.outputKillBytes ?? maxOutputFileBytes();
    let child: ChildProcess | undefined;
    let stdout: Readable | undefined;
    let launcherExit: Promise<LauncherExit> | undefined;
    const warm = options.launcher?.take(this.#isolation, options.env, options.cwd, shell, options.command);
    if (warm) {
      // The launcher already runs in its own namespace and process group, in this cwd with
      // this environment: it only execs `<shell> -c <command>` (same argv and stdin, stdout
      // and stderr on one socket).
      if (await warm.start(options.command)) {
        options.launcher!.succeeded();
        stdout = warm.output!;
        this.#pid = warm.pid;
        launcherExit = warm.exited;
        this.#marker = warm.marker;
      }
    }
    if (!stdout) {
      const env = { ...options.env, [PROCESS_MARKER_ENV]: this.#marker };
      // With a namespace, one socket given as both stdout and stderr saves an `sh` in front of
      // the wrapper (its init hands the command that socket as both).
      const pair = namespaced ? await createSocketPair() : undefined;
      try {
        if (pair) {
          const contained = this.#isolation.wrap([...shell, "-c", options.command], env);
          child = spawn(contained.file, contained.args, {
            cwd: options.cwd,
            env: contained.env,
            stdio: ["ignore", pair.childEnd, pair.childEnd],
            detached: true,
          });
          stdout = pair.ourEnd;
        } else {
          // `exec "$@" 2>&1`: stderr joins stdout on one pipe, so the two interleave in the
          // order the command wrote them; the wrapper sh replaces itself and leaves no process.
          child = spawn("/bin/sh", ["-c", 'exec "$@" 2>&1', "sh", ...shell, "-c", options.command], {
            cwd: options.cwd,
            env,
            stdio: ["ignore", "pipe", "ignore"],
            detached: true,
          });
          stdout = child.stdout!;
        }
      } catch (error) {
        pair?.ourEnd.destroy();
        rejectSpawned(error as Error);
        log?.destroy();
        throw error;
      } finally {
        // The child holds its own copy (or never started); ours would keep the stream open.
        pair?.childEnd.destroy();
      }
      this.#pid = child?.pid;
    }
    const pipe: Readable = stdout!;
    this.#stdout = pipe;
    let limitHit = false;
    const streamClosed = new Promise<void>((resolve) => {
      pipe.on("data", (chunk: Buffer) => {
        this.#totalBytes += chunk.length;
        this.output.push(chunk);
        if (log && this.#logBytes < logCap) {
          const room = logCap - this.#logBytes;
          const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
          this.#logBytes += part.length;
          if (!log.write(part)) {
            pipe.pause();
            log.once("drain", () => pipe.resume());
          }
        }
        if (!limitHit && this.#totalBytes > killBytes) {
          limitHit = true;
          options.onOutputLimit?.();
        }
        options.onOutput?.(chunk);
      });
      pipe.on("close", () => resolve());
      pipe.on("error", () => resolve());
      // A socket pair's end arrives paused (its token was read in paused mode).
      pipe.resume();
    });
    const toExit = (code: number | null, signal: NodeJS.Signals | null): ProcessExit =>
      signal ? { exitCode: null, signal: `signal ${SIGNAL_NUMBERS[signal] ?? signal}` } : { exitCode: code, signal: null };
    const exited = launcherExit
      ? launcherExit.then(({ code, signal }) => toExit(code, signal))
      : new Promise<ProcessExit>((resolve, reject) => {
          child!.once("error", (error) => {
            rejectSpawned(error);
            reject(error);
          });
          child!.once("spawn", () => resolveSpawned());
          child!.once("exit", (code, signal) => resolve(toExit(code, signal)));
        });
    if (launcherExit) resolveSpawned();
    let exit: ProcessExit;
    try {
      exit = await exited;
    } catch (error) {
      pipe.destroy();
      log?.destroy();
      this.#finished = true;
      throw error;
    }
    this.#exit = exit;
    // The leader is gone; nothing it started may outlive it. In a PID namespace the kernel
    // already killed the rest: the leader outlives the namespace's init, whose exit ends the
    // namespace, so the group kill there only matters for a leader killed alone from outside
    // (its init, in the group, still runs). With process groups we kill the group and marked
    // strays.
    await this.#signalTree("SIGKILL");
    if (!(await settlesWithin(streamClosed, DRAIN_TIMEOUT_MS))) {
      // The timeout may come before the loop has read output that was there all along: after a
      // stretch of synchronous work longer than the timeout (hundreds of commands spawned at once
      // on a busy machine, each fork blocking the loop), the next turn runs its timers before it
      // polls, and an `echo` answered with no output under the reliability suite's mixed load.
      // One poll reads what the command wrote before it exited; only what comes later is cut.
      await nextIoTurn();
      pipe.destroy();
    }
    this.output.end();
    if (log) await new Promise<void>((resolve) => log.end(() => resolve()));
    this.#finished = true;
    return exit;
  }

  async #signalTree(signal: NodeJS.Signals): Promise<void> {
    const pid = this.#pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already empty.
    }
    if (this.#isolation.mode === "process-group") await killMarked(this.#marker, signal);
  }
}

/** Signals every process whose environment carries `PROCESS_MARKER_ENV=marker` (Linux /proc). */
async function killMarked(marker: string, signal: NodeJS.Signals): Promise<void> {
  if (process.platform !== "linux") return;
  const needle = Buffer.from(`${PROCESS_MARKER_ENV}=${marker}\0`);
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return;
  }
  await Promise.all(
    entries
      .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
      .map(async (name) => {
        try {
          const environ = await readFile(`/proc/${name}/environ`);
          if (environ.includes(needle)) process.kill(Number(name), signal);
        } catch {
          // Gone, or not ours to read.
        }
      }),
  );
}
