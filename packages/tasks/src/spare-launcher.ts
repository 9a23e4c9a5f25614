/**
 * Pre-started, already isolated launchers per session: `/bin/sh -c <stub>`, contained as the
 * isolation wraps it (PID 2 of its own namespace, under the namespace's init), waits on its
 * output socket for one command and then `exec`s it, so the cost of creating the PID
 * namespace is paid ahead of the call. The launchers are forked by the process's
 * {@link LauncherHost}, never by the server itself, so making one does not stall the server.
 */
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";
import { sharedLauncherHost, type HostedProcess, type LauncherExit, type LauncherHost } from "./launcher-host.js";
import type { ProcessIsolation } from "./process-isolation.js";
import { settlesWithin } from "./settles-within.js";

export type { LauncherExit } from "./launcher-host.js";

/** The marker variable; duplicated from the runner to keep this module free of cycles. */
const MARKER_ENV = "GROK_TOOLS_PROCESS_MARKER";

/** Stubs that die before accepting a command, in a row, after which the session stops making them. */
export const MAX_SPARE_FAILURES = 3;

/** A stub that has not answered an instruction by then is killed; the call then spawns cold. */
export const SPARE_ACK_TIMEOUT_MS = 10_000;

/**
 * Spares kept ready per session. Two, so that back-to-back commands each find one that has
 * had a whole call's time to start (a launcher needs a few ms of exec and fork to be ready).
 */
export const SPARE_POOL_SIZE = 2;

/**
 * After a command with new settings (first command, other cwd or environment), spares for
 * them are made only once the session has been quiet this long, so that settings that keep
 * changing do not make spares that are thrown away. While the settings repeat, each command
 * that ends is replaced at once (see {@link SpareLauncher.scheduleReplenish}).
 */
export const SPARE_IDLE_DELAY_MS = 50;

/**
 * How long a call waits for a spare that is still starting (normally ready in a few ms)
 * before it kills it and spawns cold.
 */
export const SPARE_READY_WAIT_MS = 1_000;

/** Longer commands spawn cold: the stub reads its instruction one byte per syscall. */
export const MAX_WARM_COMMAND_CHARS = 4_096;

/** The stub's own variables; an environment that already has one is not used warm. */
const STUB_VARIABLE_PREFIX = "_grok_stub_";

// The stub, run by `/bin/sh`: started with the command's environment and cwd and a duplex
// socket as stdout, it reads the command from that socket as a line count and that many
// lines, answers `y` on it just before `exec`, and `exec`s `"$@" -c <command>` with stdout
// and stderr on the socket (the shell argv comes as positional parameters). The command is
// data in a variable, never code. EOF (the server died) makes it exit, so an idle stub never
// outlives its server. Its own variables are not exported, so the command's environment is
// the one the cold path gives (environments that `sh` would alter are not run warm: see
// `warmableEnv`).
const STUB = [
  "IFS= read -r _grok_stub_n <&1 || exit 99",
  "case $_grok_stub_n in ''|*[!0-9]*) exit 99;; esac",
  "_grok_stub_i=0",
  "_grok_stub_c=",
  'while [ "$_grok_stub_i" -lt "$_grok_stub_n" ]; do',
  "  IFS= read -r _grok_stub_l <&1 || exit 99",
  '  if [ "$_grok_stub_i" -eq 0 ]; then _grok_stub_c=$_grok_stub_l; else _grok_stub_c="$_grok_stub_c',
  '$_grok_stub_l"; fi',
  "  _grok_stub_i=$((_grok_stub_i + 1))",
  "done",
  "printf y",
  'exec "$@" -c "$_grok_stub_c" 2>&1',
].join("\n");

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

/** A launcher that runs and waits for its command. */
interface ReadyLaunch {
  pid: number;
  socket: Socket;
}

/** One launcher, asked of the host, taken by a single command. */
export class WarmLaunch {
  /** The marker placed in the command's environment. */
  readonly marker: string;
  /** Resolves when the leader exits, or at once when it never started. */
  readonly exited: Promise<LauncherExit>;
  readonly #ready: Promise<ReadyLaunch | undefined>;
  readonly #host: LauncherHost;
  #launch: ReadyLaunch | undefined;
  #exit: LauncherExit | undefined;
  #answer: Promise<boolean> | undefined;
  #killed = false;

  /** @internal Built by {@link SpareLauncher}. */
  constructor(host: LauncherHost, hosted: Promise<HostedProcess | undefined>, marker: string) {
    this.marker = marker;
    this.#host = host;
    this.#ready = hosted.then((launch) => {
      if (!launch) return undefined;
      this.#launch = { pid: launch.pid, socket: launch.socket };
      // Idle, a spare must not keep the process alive; taking it refs it again.
      launch.socket.unref();
      if (this.#killed) this.kill();
      return this.#launch;
    });
    this.exited = hosted
      .then((launch) => (launch ? launch.exited : { code: null, signal: null }))
      .then((exit) => {
        this.#exit = exit;
        return exit;
      });
  }

  /** The leader's pid once the host reported it started. */
  get pid(): number | undefined {
    return this.#launch?.pid;
  }

  /** The socket carrying the command's output once {@link start} resolved true. */
  get output(): Socket | undefined {
    return this.#launch?.socket;
  }

  /** Whether the launcher may still take a command (not killed, not exited, not failed). */
  get alive(): boolean {
    return !this.#killed && this.#exit === undefined && !(this.#launch?.socket.destroyed ?? false);
  }

  /** Whether the launcher started and waits (a pending one is alive but not ready). */
  get ready(): boolean {
    return this.alive && this.#launch !== undefined;
  }

  /**
   * Sends the command and resolves true once the stub is about to `exec` it, false when it
   * cannot (it died or never started): then nothing ran and the caller spawns cold.
   */
  start(command: string): Promise<boolean> {
    this.#answer ??= this.#start(command);
    return this.#answer;
  }

  async #start(command: string): Promise<boolean> {
    const release = this.#host.hold();
    void this.exited.then(release);
    await settlesWithin(this.#ready, SPARE_READY_WAIT_MS);
    const launch = this.#launch;
    if (!launch || !this.alive) {
      this.kill();
      return false;
    }
    const socket = launch.socket;
    // From now on the call waits on this launcher: it must hold the event loop like a cold child.
    socket.ref();
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => this.kill(), SPARE_ACK_TIMEOUT_MS);
      timer.unref();
      // The verdict is the first byte before EOF: `y` is written right before `exec`, so a
      // `y` means the command runs (even if the launcher was killed after it), and EOF
      // without it means nothing ran. Never decided by a timer, so a command never runs twice.
      // Paused-mode reads take that byte alone; the output behind it stays for the caller.
      const onReadable = () => {
        const first = socket.read(1) as Buffer | null;
        if (first !== null) finish(first[0] === 0x79);
      };
      const onEnd = () => finish(false);
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        socket.off("readable", onReadable);
        socket.off("end", onEnd);
        socket.off("close", onEnd);
        if (!ok) this.kill();
        resolve(ok);
      };
      socket.on("readable", onReadable);
      socket.once("end", onEnd);
      socket.once("close", onEnd);
      const lines = command.split("\n");
      socket.write(`${lines.length}\n${lines.join("\n")}\n`);
    });
  }

  /** Kills the launcher's whole group (the stub, or the command it became). */
  kill(): void {
    this.#killed = true;
    const launch = this.#launch;
    if (!launch) return;
    try {
      process.kill(-launch.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
    launch.socket.destroy();
  }
}

/**
 * A session's spare launchers: up to {@link SPARE_POOL_SIZE} idle launchers built for one
 * isolation, environment, cwd and shell (a call with other settings spawns cold and the
 * spares are rebuilt for them), killed on dispose. Only used with PID-namespace isolation,
 * where they hide the wrapper's extra fork and execs; each command still gets a namespace
 * and process group of its own.
 */
export class SpareLauncher {
  readonly #host: LauncherHost;
  #spares: WarmLaunch[] = [];
  #key: SpareKey | undefined;
  #failures = 0;
  #warmStarts = 0;
  #disposed = false;
  #timer: NodeJS.Timeout | undefined;
  /** Whether the last {@link take} asked for the same settings as the spares before it. */
  #settingsRepeat = false;

  constructor(host: LauncherHost = sharedLauncherHost()) {
    this.#host = host;
  }

  /** The pid of the spare the next matching call takes, when one is ready (diagnostics and tests). */
  get idlePid(): number | undefined {
    return this.#spares.find((spare) => spare.ready)?.pid;
  }

  /** The pids of all ready spares (diagnostics and tests). */
  get idlePids(): number[] {
    return this.#spares.filter((spare) => spare.ready).map((spare) => spare.pid!);
  }

  /**
   * Takes a spare when they were built for exactly these settings; else returns undefined
   * (the caller spawns cold) and remembers the settings for the next spares.
   */
  take(isolation: ProcessIsolation, env: Readonly<Record<string, string>>, cwd: string, shell: readonly string[], command: string): WarmLaunch | undefined {
    this.#cancelReplenish();
    this.#settingsRepeat = false;
    if (!this.#usable || isolation.mode !== "pid-namespace") return undefined;
    if (command.length > MAX_WARM_COMMAND_CHARS || command.includes("\0") || !warmableEnv(env) || !path.isAbsolute(cwd) || cwd.includes("\0")) return undefined;
    const cwdId = directoryId(cwd);
    if (cwdId === undefined) return undefined;
    const envKey = environmentKey(env);
    const key = this.#key;
    const same =
      key !== undefined && key.isolation === isolation && key.envKey === envKey && key.cwd === cwd && key.cwdId === cwdId && sameArgs(key.shell, shell);
    this.#settingsRepeat = same;
    this.#spares = this.#spares.filter((spare) => spare.alive);
    if (same && this.#spares.length > 0) {
      // A ready one first; one still starting is still faster than a cold spawn.
      const index = Math.max(
        0,
        this.#spares.findIndex((spare) => spare.ready),
      );
      return this.#spares.splice(index, 1)[0];
    }
    // None yet, all dead, or built for something else: the next ones are built for this call.
    this.#discard();
    if (!same) this.#key = { isolation, env, envKey, cwd, cwdId, shell: [...shell] };
    return undefined;
  }

  /**
   * Called when a command is over: fills the pool unless a command starts first. When the
   * command's settings repeated the previous one's, right after this call's answer has gone
   * out, so back-to-back commands start warm too; after new settings, once the session has
   * been quiet {@link SPARE_IDLE_DELAY_MS}.
   */
  scheduleReplenish(): void {
    this.#cancelReplenish();
    if (this.#settingsRepeat) {
      // Not cancelled by the next take: back-to-back calls must not starve the pool.
      this.#settingsRepeat = false;
      setImmediate(() => this.replenish());
      return;
    }
    if (!this.#usable || !this.#key || this.#spares.filter((spare) => spare.alive).length >= SPARE_POOL_SIZE) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.replenish();
    }, SPARE_IDLE_DELAY_MS);
    this.#timer.unref();
  }

  /** Asks the host for launchers until the pool is full. */
  replenish(): void {
    const key = this.#key;
    if (!this.#usable || !key) return;
    if (directoryId(key.cwd) !== key.cwdId) return;
    this.#spares = this.#spares.filter((spare) => spare.alive);
    while (this.#spares.length < SPARE_POOL_SIZE) {
      const marker = randomUUID();
      const contained = key.isolation.wrap(["/bin/sh", "-c", STUB, "sh", ...key.shell], { ...key.env, [MARKER_ENV]: marker });
      const hosted = this.#host.spawn({ file: contained.file, args: contained.args, cwd: key.cwd, env: contained.env });
      const launch = new WarmLaunch(this.#host, hosted, marker);
      this.#spares.push(launch);
      void launch.exited.then(() => {
        // Died idle (never started, killed from outside, no /bin/sh...): counted, replaced
        // after the next call.
        const index = this.#spares.indexOf(launch);
        if (index >= 0) {
          this.#spares.splice(index, 1);
          this.#failures++;
        }
      });
    }
  }

  /** Commands that ran in a spare so far (diagnostics and tests). */
  get warmStarts(): number {
    return this.#warmStarts;
  }

  /** A taken launch accepted its command: stubs work here. */
  succeeded(): void {
    this.#failures = 0;
    this.#warmStarts++;
  }

  /** Kills the idle launchers and makes no more (session close). */
  dispose(): void {
    this.#disposed = true;
    this.#cancelReplenish();
    this.#discard();
  }

  get #usable(): boolean {
    return !this.#disposed && this.#failures < MAX_SPARE_FAILURES && this.#host.usable;
  }

  #cancelReplenish(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #discard(): void {
    const spares = this.#spares;
    this.#spares = [];
    for (const spare of spares) spare.kill();
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
