/**
 * The server's process limit for commands: a pids cgroup of its own (cgroup v1 `pids` or v2 with
 * the pids controller) whose `pids.max` bounds every command and descendant together, so a fork
 * bomb stops at the limit instead of filling the machine. Detected once per process where the
 * kernel lets us create the group (root, or a delegated subtree); elsewhere there is no limit and
 * the startup detail says so. RLIMIT_NPROC is no substitute: root ignores it.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Set to a number to change the limit (tasks of all commands together), `0` to have none. */
export const MAX_PROCESSES_ENV_VAR = "GROK_TOOLS_MAX_PROCESSES";
/** Default limit: far above what 64 concurrent commands and their tools need, far below a fork bomb's reach. */
export const DEFAULT_MAX_PROCESSES = 2048;

const GROUP_PREFIX = "grok-tools-";

/** A created limit: the file a command writes `0` to in order to join it. */
export interface ProcessLimit {
  readonly max: number;
  readonly procsFile: string;
  readonly detail: string;
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

/** Removes the empty groups of servers that are gone (a `kill -9` leaves its group behind). */
function removeStaleGroups(hierarchy: string): void {
  for (const name of readdirSync(hierarchy)) {
    const pid = Number(name.startsWith(GROUP_PREFIX) ? name.slice(GROUP_PREFIX.length) : NaN);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
      continue; // That server still runs.
    } catch {
      // Gone: its group can go once empty (rmdir refuses otherwise).
    }
    try {
      rmdirSync(path.join(hierarchy, name));
    } catch {
      // Still has processes, or not ours to remove.
    }
  }
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
  const group = path.join(hierarchy, `${GROUP_PREFIX}${process.pid}`);
  try {
    removeStaleGroups(hierarchy);
    mkdirSync(group, { recursive: true });
    writeFileSync(path.join(group, "pids.max"), String(max));
  } catch (error) {
    why = `no process limit (cannot create a pids cgroup under ${hierarchy}: ${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    return undefined;
  }
  // Empty once the last command is gone; removed at exit (a later server removes it after a kill -9).
  process.once("exit", () => {
    try {
      rmdirSync(group);
    } catch {
      // Commands still running (they die with their namespaces right after).
    }
  });
  detected = Object.freeze({ max, procsFile: path.join(group, "cgroup.procs"), detail: `commands share a process limit of ${max} (pids cgroup ${group})` });
  return detected;
}

/** The startup line about the limit: what it is, or why there is none. */
export function processLimitDetail(): string {
  return processLimit()?.detail ?? why;
}
