/**
 * Detects, once per process, how commands can be contained so that killing one kills its
 * whole tree: a PID namespace with a minimal init and a /proc of its own where the kernel
 * allows it, else the process group alone (decision D4). It builds the argv that runs a
 * command contained; it does not spawn commands (the runner and the spare launchers do).
 */
import { spawn, spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";
import { processLimit, processLimitDetail } from "./process-limit.js";

/** A command line to spawn: the file, its arguments and its environment. */
export interface ContainedCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/** How spawned commands are contained. */
export interface ProcessIsolation {
  /** `pid-namespace`: every descendant, `setsid` ones included, dies with the command. */
  readonly mode: "pid-namespace" | "process-group";
  /**
   * Whether the namespace has its own /proc: commands then see only their own processes,
   * never the server's (its argv, environment or memory).
   */
  readonly privateProc: boolean;
  /**
   * Whether a command killed by a signal is reported as that signal (`exitSignal`), and a
   * command that exits with 128+N as that exit code. False only for bubblewrap, whose init
   * turns a signal death into exit 128+N.
   */
  readonly exactSignals: boolean;
  /** One line for the server's startup log. */
  readonly detail: string;
  /**
   * The procs file of the pids cgroup a command's leader joins before the command starts
   * (process-limit.ts), or undefined when commands join none (no limit here, or a layout that
   * cannot join one: bubblewrap, process groups).
   */
  readonly processLimitFile: string | undefined;
  /**
   * The same isolation with commands joining the pids cgroup of `procsFile` instead (a
   * session's own group); an isolation whose commands join none returns itself. Nothing is
   * added to the command's environment: the leader script names the file.
   */
  withProcessLimit(procsFile: string): ProcessIsolation;
  /**
   * The spawn that runs `argv` (a shell and its arguments) contained, with `env` as exactly
   * the environment `argv[0]` starts with and every signal at its default disposition. The
   * leader it starts exits as the command does: with its exit code or by its signal.
   * `process-group` returns `argv` itself.
   */
  wrap(argv: readonly string[], env: Readonly<Record<string, string>>): ContainedCommand;
}

/** Set to `process-group` to skip namespace detection (tests, hosts that sandbox otherwise). */
export const ISOLATION_ENV_VAR = "GROK_TOOLS_PROCESS_ISOLATION";

const PROBE_TIMEOUT_MS = 5_000;

/** The name PID 1 of every command namespace carries as its `$0` (it shows in `ps`). */
export const INIT_NAME = "grok-tools-init";

// The leader and the init, run by dash (or a shell whose `jobs` still lists a job that `wait`
// collected, which the probe checks). `unshare --pid` without `--fork` leaves this shell in the
// parent namespace and puts its children in the new one: the command substitution, forked
// first, becomes PID 1 there, and forks the command as a normal child (PID 2). So a command that
// kills itself, `kill 0` or a trap behave as in a terminal: the kernel only shields PID 1. The
// init waits for the command, reaping orphans the while (dash waits on any child), prints the
// wait status and `jobs -l` (which says `Done(N)` for an exit, the signal's name for a kill),
// and exits, which kills whatever the command left in the namespace. This shell, outside the
// namespace and so killable by its own signals, then exits with the same code or kills itself
// with the same signal, so whoever spawned it sees exactly what the command did; a signal above
// 31, which Node reports as exit 0 (it has no name for it), becomes exit 128+N as bash reports
// it. It ignores the signals a process group gets (`kill 0`, the server's SIGTERM), as the init
// does (PID 1 ignores them anyway); `env --default-signal` gives the command default
// dispositions again (an asynchronous list also starts with SIGINT and SIGQUIT ignored). The
// init's stderr is dropped: dash reports killed jobs there. `setup` runs in the command's
// process (PID 2) before it execs the command.
function leaderScript(setup: string): string {
  return [
    "trap '' HUP INT QUIT USR1 USR2 PIPE ALRM TERM TSTP TTIN TTOU XCPU XFSZ VTALRM PROF",
    "exec 3>&1",
    `s=$(exec 2>/dev/null; { ${setup}exec "$@" >&3 2>&3 3>&-; } & wait $!; echo "$?"; jobs -l)`,
    "exec 3>&-",
    "r=${s%%[!0-9]*}",
    "case $s in",
    '*Done*) exit "$r";;',
    `*'['*) n=$((r - 128)); [ "$n" -lt 32 ] || exit "$r"; ulimit -c 0; trap - "$n" 2>/dev/null; kill -"$n" $$;;`,
    "esac",
    'exit "$r"',
  ].join("\n");
}

// A /proc of the command's own, in the mount namespace the leader's `unshare --mount` made:
// the host's /proc is detached first, so that a command with the right to unmount (root) finds
// an empty directory under its /proc, not the host's processes. Where the host's /proc cannot
// be detached (it is locked in a user namespace), the command runs in a nested user namespace
// instead, whose copy of the mounts is locked as a whole, this /proc included.
function privateProcSetup(mount: string, umount: string): string {
  return `${shellQuote(umount)} -l /proc; ${shellQuote(mount)} -t proc -o nosuid,nodev,noexec proc /proc || { echo "grok-tools: could not mount a /proc for the command" >&3; exit 126; }; `;
}

// Joins a pids cgroup (process-limit.ts: the session's, or the server's): the command and
// everything it starts count against its limit, so a fork bomb ends in "fork: Resource
// temporarily unavailable". It runs in the command's process (PID 2) before the exec: the
// command and its descendants are counted, the leader and the init are not.
function processLimitSetup(procsFile: string): string {
  return `echo 0 > ${shellQuote(procsFile)} || { echo "grok-tools: could not join the process limit" >&3; exit 126; }; `;
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The assignments `env` must re-apply after the leader's shell: the variables whose names are
 * not shell identifiers, which dash drops (usually none). The others it touches (`PPID`, `IFS`,
 * `PWD`, `OPTIND`) bash and zsh set for themselves at start-up anyway.
 */
export function environmentRepairs(env: Readonly<Record<string, string>>): string[] {
  const repairs: string[] = [];
  for (const name in env) {
    if (name !== "" && !name.includes("=") && !SHELL_NAME.test(name)) repairs.push(`${name}=${env[name]}`);
  }
  return repairs;
}

/** The executables the namespace layouts need, resolved through PATH. */
export interface NamespaceTools {
  unshare?: string;
  env?: string;
  shell?: string;
  mount?: string;
  umount?: string;
  bwrap?: string;
}

/** What a namespace candidate is made of. */
export interface NamespaceOptions {
  /** Create a user namespace too (`--map-root-user`), for hosts where only that is allowed. */
  userNamespace: boolean;
  /** Mount a /proc of its own (needs a mount namespace). */
  privateProc: boolean;
}

/** The process-group fallback. */
export const PROCESS_GROUP_ISOLATION: ProcessIsolation = Object.freeze({
  mode: "process-group" as const,
  privateProc: false,
  exactSignals: true,
  detail:
    "PID namespaces unavailable (unshare/bwrap failed); commands run in their own process group only, so a descendant that calls setsid can outlive a kill unless it keeps the task's environment marker, and commands can see the server's process in /proc",
  processLimitFile: undefined,
  withProcessLimit(this: ProcessIsolation): ProcessIsolation {
    return this;
  },
  wrap: (argv: readonly string[], env: Readonly<Record<string, string>>): ContainedCommand => ({ file: argv[0]!, args: argv.slice(1), env: { ...env } }),
});

/**
 * The init layout: `unshare --pid [--mount]` (no fork) → the leader script (outside) → the
 * init (PID 1) → [its own /proc] `[unshare --user --mount] env --default-signal` → `argv` (PID 2).
 * @internal Exported for tests; {@link detectProcessIsolation} picks one that works.
 */
export function namespaceIsolation(options: NamespaceOptions, tools: NamespaceTools = resolveTools()): ProcessIsolation | undefined {
  const { unshare, env: envTool, shell, mount, umount } = tools;
  if (!unshare || !envTool || !shell) return undefined;
  if (options.privateProc && (!mount || !umount)) return undefined;
  const outer = [
    ...(options.userNamespace ? ["--user", "--map-root-user"] : []),
    "--pid",
    ...(options.privateProc ? ["--mount", "--propagation", "slave"] : []),
  ];
  // `unchanged`: the nested namespace keeps `slave`, so host mounts made later still appear.
  const nested = options.privateProc && options.userNamespace ? [unshare, "--user", "--map-root-user", "--mount", "--propagation", "unchanged", "--"] : [];
  const how = options.userNamespace ? "unshare (user namespace)" : "unshare";
  const detail = `${
    options.privateProc
      ? `commands run in their own PID namespace and /proc via ${how}, under a minimal init`
      : `commands run in their own PID namespace via ${how}, under a minimal init; a /proc of their own could not be mounted, so commands can see the server's process in /proc`
  }; ${processLimitDetail()}`;
  // One leader script per pids cgroup joined: the server's (or its leaf for commands outside a
  // session) by default, a session's own through withProcessLimit.
  const joining = (procsFile: string | undefined): ProcessIsolation => {
    const script = leaderScript((procsFile ? processLimitSetup(procsFile) : "") + (options.privateProc ? privateProcSetup(mount!, umount!) : ""));
    return Object.freeze({
      mode: "pid-namespace" as const,
      privateProc: options.privateProc,
      exactSignals: true,
      detail,
      processLimitFile: procsFile,
      withProcessLimit: (file: string): ProcessIsolation => joining(file),
      wrap: (argv: readonly string[], env: Readonly<Record<string, string>>): ContainedCommand => ({
        file: unshare,
        args: [...outer, "--", shell, "-c", script, INIT_NAME, ...nested, envTool, "--default-signal", "--", ...environmentRepairs(env), ...argv],
        env: { ...env },
      }),
    });
  };
  return joining(processLimit()?.procsFile);
}

/** Bubblewrap: its own init runs the command as PID 2, but reports a signal death as 128+N. */
function bubblewrapIsolation(privateProc: boolean, tools: NamespaceTools): ProcessIsolation | undefined {
  const bwrap = tools.bwrap;
  if (!bwrap) return undefined;
  const prefix = [bwrap, "--dev-bind", "/", "/", ...(privateProc ? ["--proc", "/proc"] : []), "--unshare-pid", "--die-with-parent", "--"];
  return Object.freeze({
    mode: "pid-namespace" as const,
    privateProc,
    exactSignals: false,
    detail: `commands run in their own PID namespace${privateProc ? " and /proc" : ""} via bubblewrap, whose init reports a command killed by signal N as exit 128+N`,
    processLimitFile: undefined,
    withProcessLimit(this: ProcessIsolation): ProcessIsolation {
      return this;
    },
    wrap: (argv: readonly string[], env: Readonly<Record<string, string>>): ContainedCommand => ({
      file: prefix[0]!,
      args: [...prefix.slice(1), ...argv],
      env: { ...env },
    }),
  });
}

/** The candidates, best first: private /proc before shared, plain before user namespaces. */
function candidates(tools: NamespaceTools): ProcessIsolation[] {
  const list: Array<ProcessIsolation | undefined> = [
    namespaceIsolation({ userNamespace: false, privateProc: true }, tools),
    namespaceIsolation({ userNamespace: true, privateProc: true }, tools),
    bubblewrapIsolation(true, tools),
    namespaceIsolation({ userNamespace: false, privateProc: false }, tools),
    namespaceIsolation({ userNamespace: true, privateProc: false }, tools),
    bubblewrapIsolation(false, tools),
  ];
  return list.filter((c): c is ProcessIsolation => c !== undefined);
}

/**
 * Whether `isolation` works here as it claims: the command is not PID 1, sees only its own
 * namespace in /proc when `privateProc` (also after unmounting it), and a self-inflicted
 * SIGKILL reaches the spawner as SIGKILL (exit 137 for bubblewrap).
 * @internal Exported for tests.
 */
export function probeIsolation(isolation: ProcessIsolation): boolean {
  const { file, args, env } = probeCommand(isolation);
  const probe = spawnSync(file, args, { env, stdio: "ignore", timeout: PROBE_TIMEOUT_MS });
  return probeSucceeded(isolation, probe.status, probe.signal);
}

/** {@link probeIsolation} without blocking the event loop (the same command, the same verdict). */
export function probeIsolationAsync(isolation: ProcessIsolation): Promise<boolean> {
  const { file, args, env } = probeCommand(isolation);
  return new Promise((resolve) => {
    const probe = spawn(file, args, { env, stdio: "ignore", timeout: PROBE_TIMEOUT_MS });
    probe.once("error", () => resolve(false));
    probe.once("exit", (code, signal) => resolve(probeSucceeded(isolation, code, signal)));
  });
}

function probeCommand(isolation: ProcessIsolation): ContainedCommand {
  // `cd -P /proc/self` lands in the directory named by this shell's pid as /proc counts it: its
  // own pid ($$) only when /proc belongs to its namespace. Unmounting it must not uncover the
  // host's /proc (an empty directory, or a refusal, is what a command finds then).
  const own = 'cd -P /proc/self && [ "$PWD" = "/proc/$$" ]';
  const privateProc = isolation.privateProc ? `${own} || exit 1; cd / && umount /proc 2>/dev/null; [ ! -e /proc/self ] || { ${own}; } || exit 1; ` : "";
  const script = `[ "$$" != 1 ] || exit 1; ${privateProc}kill -9 $$; exit 1`;
  return isolation.wrap(["/bin/sh", "-c", script], { PATH: process.env.PATH ?? "/usr/bin:/bin" });
}

function probeSucceeded(isolation: ProcessIsolation, status: number | null, signal: NodeJS.Signals | null): boolean {
  return isolation.exactSignals ? signal === "SIGKILL" : status === 137;
}

let cached: ProcessIsolation | undefined;
let detecting: Promise<ProcessIsolation> | undefined;

/** The answer without probing: off Linux, or when {@link ISOLATION_ENV_VAR} says so; else undefined. */
function decidedWithoutProbe(): ProcessIsolation | undefined {
  if (process.platform !== "linux") {
    return Object.freeze({
      ...PROCESS_GROUP_ISOLATION,
      detail: `PID namespaces are Linux-only (platform ${process.platform}); commands run in their own process group only`,
    });
  }
  if (process.env[ISOLATION_ENV_VAR] === "process-group") {
    return Object.freeze({ ...PROCESS_GROUP_ISOLATION, detail: `${ISOLATION_ENV_VAR}=process-group: commands run in their own process group only` });
  }
  return undefined;
}

/**
 * {@link detectProcessIsolation} without blocking the event loop: the same candidates probed in
 * the same order with asynchronous spawns, the same cached answer. The server starts it at
 * start-up and does not wait for it to listen (issue #18): the probes took 0.2-0.35 s of the
 * start on a loaded machine, all of it blocking before the listening line. A command that comes
 * before it has finished probes synchronously (the answer is the same).
 */
export function detectProcessIsolationAsync(): Promise<ProcessIsolation> {
  if (cached) return Promise.resolve(cached);
  detecting ??= (async () => {
    const decided = decidedWithoutProbe();
    let found = decided;
    if (!found) {
      for (const candidate of candidates(resolveTools())) {
        if (cached) break;
        if (await probeIsolationAsync(candidate)) {
          found = candidate;
          break;
        }
      }
    }
    // A synchronous detection that finished meanwhile keeps its answer: one answer per process.
    cached ??= found ?? PROCESS_GROUP_ISOLATION;
    return cached;
  })();
  return detecting;
}

/**
 * How commands will be contained in this process. Probes the candidates once (a few ms
 * each) and caches the answer; the server logs `detail` at startup.
 */
export function detectProcessIsolation(): ProcessIsolation {
  if (cached) return cached;
  cached = decidedWithoutProbe() ?? candidates(resolveTools()).find(probeIsolation) ?? PROCESS_GROUP_ISOLATION;
  return cached;
}

/** The executables of the layouts; the init needs dash's `jobs` (the probe checks), else `/bin/sh`. */
function resolveTools(): NamespaceTools {
  const dirs = (process.env.PATH ?? "/usr/bin:/bin").split(path.delimiter).filter((dir) => path.isAbsolute(dir));
  const find = (name: string): string | undefined => {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // Not here.
      }
    }
    return undefined;
  };
  const tools: NamespaceTools = {};
  const unshare = find("unshare");
  const env = find("env");
  const shell = find("dash") ?? "/bin/sh";
  const mount = find("mount");
  const umount = find("umount");
  const bwrap = find("bwrap");
  if (unshare) tools.unshare = unshare;
  if (env) tools.env = env;
  tools.shell = shell;
  if (mount) tools.mount = mount;
  if (umount) tools.umount = umount;
  if (bwrap) tools.bwrap = bwrap;
  return tools;
}
