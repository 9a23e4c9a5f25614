/**
 * A pre-started, already isolated launcher per session: `<isolation prefix> /bin/sh -c <stub>`
 * waits on a private socket (fd 3) for one command and then `exec`s it, so the cost of
 * creating the PID namespace (and of forking the server) is paid ahead of the call.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";
import type { ProcessIsolation } from "./process-isolation.js";

/** The marker variable; duplicated from the runner to keep this module free of cycles. */
const MARKER_ENV = "GROK_TOOLS_PROCESS_MARKER";

/** Stubs that die before accepting a command, in a row, after which the session stops making them. */
export const MAX_SPARE_FAILURES = 3;

/** A stub that has not answered an instruction by then is killed; the call then spawns cold. */
export const SPARE_ACK_TIMEOUT_MS = 10_000;

/**
 * A new spare is forked only after the session's commands have been quiet this long: the
 * fork blocks the server's event loop for a few ms (much more on virtual machines, where
 * fork and exec are slow), which must not land inside a call. Back-to-back calls therefore
 * spawn cold, and calls with a pause before them (the usual agent rhythm) start warm.
 */
export const SPARE_IDLE_DELAY_MS = 50;

/** Longer commands spawn cold: the stub reads its instruction one byte per syscall. */
export const MAX_WARM_COMMAND_CHARS = 4_096;

/** The stub's own variables; an environment that already has one is not used warm. */
const STUB_VARIABLE_PREFIX = "_grok_stub_";

// The stub, run by `/bin/sh`: started
// with the command's environment and cwd, it waits on fd 3 for the command as a line count
// and that many lines, answers `y` just before `exec`, and `exec`s `"$@" -c <command>` (the
// shell argv comes as positional parameters). The command is data in a variable, never code.
// EOF (the server died) makes it exit, so an idle stub never outlives its server. Its own
// variables are not exported, so the command's environment is the one the cold path gives
// (environments that `sh` would alter are not run warm: see `warmableEnv`).
const STUB = [
  "IFS= read -r _grok_stub_n <&3 || exit 99",
  "case $_grok_stub_n in ''|*[!0-9]*) exit 99;; esac",
  "_grok_stub_i=0",
  "_grok_stub_c=",
  'while [ "$_grok_stub_i" -lt "$_grok_stub_n" ]; do',
  "  IFS= read -r _grok_stub_l <&3 || exit 99",
  '  if [ "$_grok_stub_i" -eq 0 ]; then _grok_stub_c=$_grok_stub_l; else _grok_stub_c="$_grok_stub_c',
  '$_grok_stub_l"; fi',
  "  _grok_stub_i=$((_grok_stub_i + 1))",
  "done",
  "printf y >&3",
  'exec "$@" -c "$_grok_stub_c" 3>&- 2>&1',
].join("\n");

/** How a launcher's leader ended (node's raw `exit` arguments). */
export interface LauncherExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What a spare is built for; a call must match all of it to use the spare. */
interface SpareKey {
  isolation: ProcessIsolation;
  env: Readonly<Record<string, string>>;
  envKey: string;
  cwd: string;
  /** `dev:ino` of `cwd` when the spare was built: a replaced folder is another folder. */
  cwdId: string;
  shell: readonly string[];
}

/** One started launcher, taken by a single command. */
export class WarmLaunch {
  readonly child: ChildProcess;
  /** The marker placed in the command's environment. */
  readonly marker: string;
  /** Resolves when the leader exits (listened to from the start, so it cannot be missed). */
  readonly exited: Promise<LauncherExit>;
  readonly #socket: Socket;
  #answer: Promise<boolean> | undefined;
  #exit: LauncherExit | undefined;

  /** @internal Built by {@link SpareLauncher}. */
  constructor(child: ChildProcess, marker: string) {
    this.child = child;
    this.marker = marker;
    this.#socket = child.stdio[3] as Socket;
    this.#socket.on("error", () => undefined);
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.#exit = { code, signal };
        resolve(this.#exit);
      });
    });
    child.on("error", () => undefined);
  }

  /** Whether the launcher is still waiting (it has not exited). */
  get alive(): boolean {
    return this.#exit === undefined && this.child.exitCode === null && this.child.signalCode === null && !this.#socket.destroyed;
  }

  /**
   * Sends the command and resolves true once the stub is about to `exec` it, false when it
   * cannot (it died): then nothing ran and the caller spawns cold.
   */
  start(command: string): Promise<boolean> {
    if (this.#answer) return this.#answer;
    const socket = this.#socket;
    // From now on the call waits on this launcher: it must hold the event loop like a cold child.
    this.child.ref();
    (this.child.stdout as Socket | null)?.ref();
    socket.ref();
    this.#answer = new Promise<boolean>((resolve) => {
      if (!this.alive) {
        socket.destroy();
        resolve(false);
        return;
      }
      const timer = setTimeout(() => this.kill(), SPARE_ACK_TIMEOUT_MS);
      timer.unref();
      // The verdict is the first byte before EOF: `y` is written right before `exec`, so a
      // `y` means the command runs (even if the launcher was killed after it), and EOF
      // without it means nothing ran. Never decided by a timer, so a command never runs twice.
      const onData = (chunk: Buffer) => finish(chunk[0] === 0x79);
      const onEnd = () => finish(false);
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        socket.off("data", onData);
        socket.off("end", onEnd);
        socket.off("close", onEnd);
        socket.destroy();
        resolve(ok);
      };
      socket.on("data", onData);
      socket.once("end", onEnd);
      socket.once("close", onEnd);
      const lines = command.split("\n");
      socket.write(`${lines.length}\n${lines.join("\n")}\n`);
    });
    return this.#answer;
  }

  /** Kills the launcher's whole group (the stub, or the command it became). */
  kill(): void {
    const pid = this.child.pid;
    if (pid !== undefined) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    this.#socket.destroy();
    this.child.stdout?.destroy();
  }
}

/**
 * A session's spare launcher: at most one idle launcher, created lazily after the first
 * command and again after each one, built for one isolation, environment, cwd and shell (a
 * call with other settings spawns cold and the spare is rebuilt for them), and killed on
 * dispose. Only used with PID-namespace isolation, where it hides the wrapper's extra
 * fork and execs; each command still gets a namespace and process group of its own.
 */
export class SpareLauncher {
  #spare: WarmLaunch | undefined;
  #key: SpareKey | undefined;
  #failures = 0;
  #disposed = false;
  #timer: NodeJS.Timeout | undefined;

  /** The idle launcher's pid, when one is waiting (diagnostics and tests). */
  get idlePid(): number | undefined {
    return this.#spare?.alive === true ? this.#spare.child.pid : undefined;
  }

  /**
   * Takes the spare when it was built for exactly these settings; else returns undefined
   * (the caller spawns cold) and remembers the settings for the next spare.
   */
  take(isolation: ProcessIsolation, env: Readonly<Record<string, string>>, cwd: string, shell: readonly string[], command: string): WarmLaunch | undefined {
    this.#cancelReplenish();
    if (this.#disposed || isolation.mode !== "pid-namespace" || this.#failures >= MAX_SPARE_FAILURES) return undefined;
    if (command.length > MAX_WARM_COMMAND_CHARS || command.includes("\0") || !warmableEnv(env) || !path.isAbsolute(cwd) || cwd.includes("\0")) return undefined;
    const cwdId = directoryId(cwd);
    if (cwdId === undefined) return undefined;
    const envKey = environmentKey(env);
    const key = this.#key;
    const spare = this.#spare;
    if (spare && spare.alive && key && key.isolation === isolation && key.envKey === envKey && key.cwd === cwd && key.cwdId === cwdId && sameArgs(key.shell, shell)) {
      this.#spare = undefined;
      return spare;
    }
    // None yet, dead, or built for something else: the next one is built for this call.
    this.#discard();
    this.#key = { isolation, env, envKey, cwd, cwdId, shell: [...shell] };
    return undefined;
  }

  /** Starts a new idle launcher after {@link SPARE_IDLE_DELAY_MS} unless a command starts first. */
  scheduleReplenish(): void {
    this.#cancelReplenish();
    if (this.#disposed || !this.#key || this.#spare?.alive) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.replenish();
    }, SPARE_IDLE_DELAY_MS);
    this.#timer.unref();
  }

  /** Starts a new idle launcher now when there is none. */
  replenish(): void {
    const key = this.#key;
    if (this.#disposed || !key || this.#spare?.alive || this.#failures >= MAX_SPARE_FAILURES) return;
    if (directoryId(key.cwd) !== key.cwdId) return;
    const marker = randomUUID();
    const [file, ...prefixArgs] = key.isolation.prefix;
    let child: ChildProcess;
    try {
      child = spawn(file!, [...prefixArgs, "/bin/sh", "-c", STUB, "sh", ...key.shell], {
        cwd: key.cwd,
        env: { ...key.env, [MARKER_ENV]: marker },
        stdio: ["ignore", "pipe", "ignore", "pipe"],
        detached: true,
      });
    } catch {
      this.#failures++;
      return;
    }
    const launch = new WarmLaunch(child, marker);
    // Idle, it must not keep the server alive; taking it refs it again.
    child.unref();
    (child.stdout as Socket | null)?.unref();
    (child.stdio[3] as Socket | null)?.unref();
    this.#spare = launch;
    void launch.exited.then(() => {
      // Died idle (killed from outside, no /bin/sh...): counted, replaced after the next call.
      if (this.#spare === launch) {
        this.#spare = undefined;
        this.#failures++;
      }
    });
  }

  /** A taken launch accepted its command: stubs work here. */
  succeeded(): void {
    this.#failures = 0;
  }

  /** Kills the idle launcher and makes no more (session close). */
  dispose(): void {
    this.#disposed = true;
    this.#cancelReplenish();
    this.#discard();
  }

  #cancelReplenish(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #discard(): void {
    const spare = this.#spare;
    this.#spare = undefined;
    spare?.kill();
  }
}

/**
 * Whether the stub passes this environment on unchanged: `sh` drops names that are not
 * shell identifiers (the cold path hands them to the shell) and sets `PPID` and its own
 * variables, so environments with such names spawn cold.
 */
function warmableEnv(env: Readonly<Record<string, string>>): boolean {
  for (const name in env) {
    if (!SHELL_NAME.test(name) || name.startsWith(STUB_VARIABLE_PREFIX) || name === "PPID" || env[name]!.includes("\0")) return false;
  }
  return true;
}

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function environmentKey(env: Readonly<Record<string, string>>): string {
  let key = "";
  for (const name in env) key += `${name}\0${env[name]}\0`;
  return key;
}

function directoryId(dir: string): string | undefined {
  try {
    const stats = statSync(dir);
    return stats.isDirectory() ? `${stats.dev}:${stats.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function sameArgs(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((arg, i) => arg === b[i]);
}
