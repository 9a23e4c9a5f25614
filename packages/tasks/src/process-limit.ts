/**
 * The process limits for commands: a pids cgroup of the server's own (cgroup v1 `pids` or v2 with
 * the pids controller) whose `pids.max` bounds every command and descendant together, and inside
 * it one group per session whose `pids.max` bounds that session's commands, so a fork bomb stops at
 * its session's limit instead of starving the other sessions or filling the machine. Detected once
 * per process where the kernel lets us create the groups (root, or a delegated subtree); elsewhere
 * there is no limit and the startup detail says so. It makes and removes groups; it does not move
 * processes (a command's leader joins a group itself: process-isolation.ts). RLIMIT_NPROC is no
 * substitute: root ignores it.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Set to a number to change the limit (tasks of all commands together), `0` to have none. */
export const MAX_PROCESSES_ENV_VAR = "GROK_TOOLS_MAX_PROCESSES";
/** Default limit: far above what 64 concurrent commands and their tools need, far below a fork bomb's reach. */
export const DEFAULT_MAX_PROCESSES = 2048;
/**
 * Set to a number to change the limit of one session's commands together (never above the
 * server's), `0` for none (the server's limit still holds).
 */
export const MAX_SESSION_PROCESSES_ENV_VAR = "GROK_TOOLS_MAX_SESSION_PROCESSES";
/** Default per-session limit: a quarter of the server's default, so one session's fork bomb leaves room for the others. */
export const DEFAULT_MAX_SESSION_PROCESSES = 512;

const GROUP_PREFIX = "grok-tools-";
const SESSION_GROUP_PREFIX = "session-";
/** The leaf of commands that belong to no session (the isolation probe, direct spawns) once sessions have groups. */
const SHARED_LEAF = "shared";
/** First delay before removing a released session group again that still had processes; it doubles up to the cap. */
const REMOVE_RETRY_FIRST_MS = 50;
const REMOVE_RETRY_MAX_MS = 5_000;
/** Attempts after the first (about 70 s in all); after them the group waits for the exit or the next server's start. */
const REMOVE_RETRIES = 20;

/** A session's group, held while the session may start commands. */
export interface SessionProcessLimit {
  /** `pids.max` of the group: the session's commands and descendants together. */
  readonly max: number;
  /** The group's folder (a child of the server's group). */
  readonly group: string;
  /** The file a command of the session writes `0` to in order to join the group. */
  readonly procsFile: string;
  /**
   * Ends this hold (idempotent). The group is removed once no hold is left and it is empty;
   * while processes remain, removal is retried for a while, then left to the exit.
   */
  release(): void;
}

/** A created limit: the server's group, and the session groups made in it. */
export interface ProcessLimit {
  /** `pids.max` of the server's group: every command and descendant together. */
  readonly max: number;
  /** `pids.max` of each session's group; 0 when sessions share the server's group. */
  readonly sessionMax: number;
  /** The server's group folder. */
  readonly group: string;
  /**
   * The file a command outside any session writes `0` to: the server's group itself when there
   * are no session groups, else a leaf beside them (on cgroup v2 a group that has child groups
   * with controllers cannot hold processes, so commands only ever join leaves).
   */
  readonly procsFile: string;
  readonly detail: string;
  /**
   * Holds the group of the session `sessionId` (any text: the folder is named after a hash of
   * it), creating it on the first hold; undefined when sessions have no groups (`sessionMax`
   * 0) or it cannot be made (the caller's commands then join {@link procsFile}).
   */
  acquireSession(sessionId: string): SessionProcessLimit | undefined;
  /** Removes the session groups and the server's group, those that are empty (at exit). */
  remove(): void;
}

/** Where pids cgroups can be made: the v1 `pids` hierarchy, or a v2 root that offers pids. */
function pidsHierarchy(): string | undefined {
  if (existsSync("/sys/fs/cgroup/pids/cgroup.procs")) return "/sys/fs/cgroup/pids";
  for (const root of ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"]) {
    try {
      if (/\bpids\b/.test(readFileSync(path.join(root, "cgroup.subtree_control"), "utf8"))) return root;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

/** Removes `dir`'s child groups, then `dir` (rmdir refuses a group with processes: those stay). */
function removeGroupTree(dir: string): void {
  let children: string[] = [];
  try {
    children = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    // Gone already, or not readable: the rmdir below says no too.
  }
  for (const child of children) removeGroupTree(path.join(dir, child));
  try {
    rmdirSync(dir);
  } catch {
    // Still has processes, or not ours to remove.
  }
}

/**
 * Removes the empty groups of servers that are gone (a `kill -9` leaves its group behind), their
 * session groups first.
 * @internal Exported for tests.
 */
export function removeStaleGroups(hierarchy: string): void {
  for (const name of readdirSync(hierarchy)) {
    const pid = Number(name.startsWith(GROUP_PREFIX) ? name.slice(GROUP_PREFIX.length) : NaN);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
      continue; // That server still runs.
    } catch (error) {
      // EPERM: it runs, under another user. Else gone: its groups can go once empty.
      if ((error as NodeJS.ErrnoException).code === "EPERM") continue;
    }
    removeGroupTree(path.join(hierarchy, name));
  }
}

/**
 * The folder name of a session's group: filesystem-safe whatever the id holds, the same for
 * the same id (a session evicted and opened again finds its group, and its leftovers, again).
 * @internal Exported for tests.
 */
export function sessionGroupName(sessionId: string): string {
  return `${SESSION_GROUP_PREFIX}${createHash("sha256").update(sessionId).digest("hex").slice(0, 16)}`;
}

/**
 * The per-session limit `configured` asks for under a server limit of `max`: the default (capped
 * at `max`) when unset, at most `max`, 0 (none) when `0` or not a whole number, with the reason.
 * @internal Exported for tests.
 */
export function sessionLimitFrom(configured: string | undefined, max: number): { sessionMax: number; note?: string } {
  if (configured === undefined || configured === "") return { sessionMax: Math.min(DEFAULT_MAX_SESSION_PROCESSES, max) };
  const value = Number(configured);
  if (!Number.isInteger(value) || value < 0) {
    return { sessionMax: 0, note: `${MAX_SESSION_PROCESSES_ENV_VAR}=${configured} is not a whole number; no per-session limit` };
  }
  if (value === 0) return { sessionMax: 0, note: `${MAX_SESSION_PROCESSES_ENV_VAR}=0: no per-session limit` };
  return { sessionMax: Math.min(value, max) };
}

interface SessionEntry {
  holds: number;
  retry: NodeJS.Timeout | undefined;
}

/**
 * Creates the server's group `name` under `hierarchy` with `pids.max` = `max`, and makes session
 * groups possible in it when `sessionMax` > 0 (on v2 by enabling pids for its children). Throws
 * when the server's group cannot be made; a failure to allow session groups leaves sessions
 * sharing the server's group, as `detail` says.
 * @internal Exported for tests (a folder of their own stands for the hierarchy); the server uses {@link processLimit}.
 */
export function createProcessLimit(hierarchy: string, name: string, max: number, sessionLimit: { sessionMax: number; note?: string }): ProcessLimit {
  const group = path.join(hierarchy, name);
  mkdirSync(group, { recursive: true });
  writeFileSync(path.join(group, "pids.max"), String(max));
  let sessionMax = sessionLimit.sessionMax;
  let note = sessionLimit.note;
  const sharedLeaf = path.join(group, SHARED_LEAF);
  if (sessionMax > 0) {
    // v2 only (v1 has no cgroup.subtree_control): child groups get the pids controller only if
    // their parent hands it down. v1 children have every controller of their hierarchy.
    const v2 = existsSync(path.join(hierarchy, "cgroup.subtree_control"));
    try {
      if (v2) writeFileSync(path.join(group, "cgroup.subtree_control"), "+pids");
      makeGroup(sharedLeaf, sessionMax);
    } catch (error) {
      if (v2) {
        try {
          writeFileSync(path.join(group, "cgroup.subtree_control"), "-pids");
        } catch {
          // Never enabled.
        }
      }
      note = `no per-session limit (cannot make groups under ${group}: ${(error as NodeJS.ErrnoException).code ?? String(error)})`;
      sessionMax = 0;
    }
  }
  const sessions = new Map<string, SessionEntry>();

  const tryRemove = (folder: string, entry: SessionEntry, attempt: number): void => {
    if (entry.holds > 0 || sessions.get(folder) !== entry) return;
    try {
      rmdirSync(path.join(group, folder));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" && attempt < REMOVE_RETRIES) {
        // Processes remain (killed ones take a moment to go): again later.
        entry.retry = setTimeout(
          () => {
            entry.retry = undefined;
            tryRemove(folder, entry, attempt + 1);
          },
          Math.min(REMOVE_RETRY_FIRST_MS * 2 ** attempt, REMOVE_RETRY_MAX_MS),
        );
        entry.retry.unref();
        return;
      }
    }
    sessions.delete(folder);
  };

  const acquireSession = (sessionId: string): SessionProcessLimit | undefined => {
    if (sessionMax === 0) return undefined;
    const folder = sessionGroupName(sessionId);
    const dir = path.join(group, folder);
    let entry = sessions.get(folder);
    if (!entry) {
      entry = { holds: 0, retry: undefined };
      sessions.set(folder, entry);
    }
    if (entry.retry) clearTimeout(entry.retry);
    entry.retry = undefined;
    try {
      makeGroup(dir, sessionMax);
    } catch {
      tryRemove(folder, entry, REMOVE_RETRIES);
      return undefined;
    }
    entry.holds++;
    const held = entry;
    let released = false;
    return Object.freeze({
      max: sessionMax,
      group: dir,
      procsFile: path.join(dir, "cgroup.procs"),
      release: () => {
        if (released) return;
        released = true;
        held.holds--;
        tryRemove(folder, held, 0);
      },
    });
  };

  const perSession = sessionMax > 0 ? `, ${sessionMax} per session` : note ? `; ${note}` : "";
  return Object.freeze({
    max,
    sessionMax,
    group,
    procsFile: path.join(sessionMax > 0 ? sharedLeaf : group, "cgroup.procs"),
    detail: `commands share a process limit of ${max} (pids cgroup ${group})${perSession}`,
    acquireSession,
    remove: () => {
      for (const entry of sessions.values()) if (entry.retry) clearTimeout(entry.retry);
      sessions.clear();
      removeGroupTree(group);
    },
  });
}

/** Creates the group `dir` (or finds it) and sets its `pids.max`. */
function makeGroup(dir: string, max: number): void {
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  writeFileSync(path.join(dir, "pids.max"), String(max));
}

let detected: ProcessLimit | null | undefined;
let why = "";

/** This process's limit, created on first use; `undefined` when the kernel offers none here. */
export function processLimit(): ProcessLimit | undefined {
  if (detected !== undefined) return detected ?? undefined;
  detected = null;
  const configured = process.env[MAX_PROCESSES_ENV_VAR];
  const max = configured === undefined || configured === "" ? DEFAULT_MAX_PROCESSES : Number(configured);
  if (!Number.isInteger(max) || max < 0) {
    why = `${MAX_PROCESSES_ENV_VAR}=${configured} is not a whole number; no process limit`;
    return undefined;
  }
  if (max === 0) {
    why = `${MAX_PROCESSES_ENV_VAR}=0: no process limit`;
    return undefined;
  }
  if (process.platform !== "linux") {
    why = "no process limit (pids cgroups are Linux-only)";
    return undefined;
  }
  const hierarchy = pidsHierarchy();
  if (!hierarchy) {
    why = "no process limit (no pids cgroup controller here)";
    return undefined;
  }
  let limit: ProcessLimit;
  try {
    removeStaleGroups(hierarchy);
    limit = createProcessLimit(hierarchy, `${GROUP_PREFIX}${process.pid}`, max, sessionLimitFrom(process.env[MAX_SESSION_PROCESSES_ENV_VAR], max));
  } catch (error) {
    why = `no process limit (cannot create a pids cgroup under ${hierarchy}: ${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    return undefined;
  }
  // Empty once the last command is gone; removed at exit (a later server removes it after a kill -9,
  // or when commands were still running: they die with their namespaces right after).
  process.once("exit", () => limit.remove());
  detected = limit;
  return detected;
}

/** The startup line about the limit: what it is, or why there is none. */
export function processLimitDetail(): string {
  return processLimit()?.detail ?? why;
}
