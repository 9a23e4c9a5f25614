/**
 * One server per state folder: a lock file (`server.lock`) naming the process that holds it. A lock
 * whose process is gone (kill -9, crash, reboot) is stale and taken over, so it never blocks for good.
 * It does not lock anything inside the folder (session files are the runtime's).
 *
 * Liveness: on the same machine and PID namespace, the holder's pid must exist and have the start
 * time recorded in the lock (a reused pid does not count). A holder in another PID namespace or on
 * another host (a shared volume) cannot be checked that way, so it refreshes the lock's mtime every
 * LOCK_HEARTBEAT_MS and counts as gone after LOCK_STALE_AFTER_MS without a refresh.
 */
import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, readlinkSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { unwritableStateError } from "./state-folder.js";

/** Name of the lock file inside a state folder. */
export const LOCK_FILE_NAME = "server.lock";
/** How often a holder refreshes its lock's mtime (for holders that cannot be checked by pid). */
export const LOCK_HEARTBEAT_MS = 10_000;
/** A lock not refreshed for this long is stale when its holder cannot be checked by pid. */
export const LOCK_STALE_AFTER_MS = 3 * LOCK_HEARTBEAT_MS;
/** Attempts at taking over stale locks before giving up (each one lost to a racing server). */
const MAX_ACQUIRE_ATTEMPTS = 5;

/** What a lock file records about its holder. */
export interface LockHolder {
  /** Random id of this acquisition: tells our lock from another's with the same pid. */
  id: string;
  pid: number;
  /** Start time of the process in clock ticks since boot (/proc/PID/stat field 22). */
  startTicks?: string;
  bootId?: string;
  pidNamespace?: string;
  hostname: string;
  workspace: string;
  startedAt: string;
}

/** Another live server holds the state folder. */
export class StateFolderInUseError extends Error {
  readonly holder: LockHolder;
  readonly lockFile: string;
  constructor(lockFile: string, holder: LockHolder, remote: boolean) {
    const where =
      holder.pid === process.pid && !remote ? "this process" : `pid ${holder.pid}${remote ? ` on ${holder.hostname} or in another PID namespace` : ""}`;
    super(
      `The state folder ${path.dirname(lockFile)} is in use by another grok-tools-server (${where}, workspace ${holder.workspace}, since ${holder.startedAt}). ` +
        `Two servers on one workspace would overwrite each other's state: stop that server, or give this one another --state-dir.` +
        (remote
          ? ` If no server runs there any more, the lock counts as stale ${LOCK_STALE_AFTER_MS / 1000} s after its last refresh (or delete ${lockFile}).`
          : ""),
    );
    this.name = "StateFolderInUseError";
    this.holder = holder;
    this.lockFile = lockFile;
  }
}

/** A held lock. */
export interface StateFolderLock {
  readonly file: string;
  readonly holder: LockHolder;
  /** Removes the lock if it is still ours. Idempotent. */
  release(): void;
}

/**
 * Takes the lock of `folder` (which must exist) for this process, or throws
 * {@link StateFolderInUseError} when a live server holds it. `stateRoot` is only for error messages.
 */
export function acquireStateFolderLock(folder: string, stateRoot: string, workspace: string): StateFolderLock {
  const file = path.join(folder, LOCK_FILE_NAME);
  const holder: LockHolder = {
    id: randomBytes(8).toString("hex"),
    pid: process.pid,
    ...optional("startTicks", processStartTicks(process.pid)),
    ...optional("bootId", bootId()),
    ...optional("pidNamespace", pidNamespace()),
    hostname: os.hostname(),
    workspace,
    startedAt: new Date().toISOString(),
  };
  // Written whole under a private name, then hard-linked into place: link() fails when the lock
  // exists, so creating it is atomic and a reader never sees a half-written lock.
  const mine = `${file}.${process.pid}.${holder.id}`;
  try {
    writeFileSync(mine, `${JSON.stringify(holder)}\n`, { flag: "wx", mode: 0o644 });
  } catch (error) {
    throw unwritableStateError(stateRoot, error);
  }
  try {
    for (let attempt = 0; attempt < MAX_ACQUIRE_ATTEMPTS; attempt++) {
      try {
        linkSync(mine, file);
        return holdLock(file, holder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw unwritableStateError(stateRoot, error);
      }
      const current = readLock(file);
      if (current === "gone") continue;
      if (current === "forbidden") {
        throw new Error(
          `The state folder ${folder} has a lock file this user cannot read (${file}): another user's server may hold it. Give this server another --state-dir.`,
        );
      }
      if (current !== "malformed") {
        const liveness = holderLiveness(current, file);
        if (liveness !== "dead") throw new StateFolderInUseError(file, current.holder, liveness === "alive-remote");
      }
      takeOverStale(file, current === "malformed" ? undefined : current.holder.id);
    }
    throw new Error(`Could not take the lock ${file}: other servers kept taking it over; try again.`);
  } finally {
    tryUnlink(mine);
  }
}

function holdLock(file: string, holder: LockHolder): StateFolderLock {
  let released = false;
  const heartbeat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(file, now, now);
    } catch {
      // The folder went away; nothing to refresh.
    }
  }, LOCK_HEARTBEAT_MS);
  heartbeat.unref();
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    heldLocks.delete(release);
    const current = readLock(file);
    if (typeof current === "object" && current.holder.id === holder.id) tryUnlink(file);
  };
  // process.exit() and a normal exit remove the lock; kill -9 leaves it, and the next server finds it stale.
  heldLocks.add(release);
  if (heldLocks.size === 1 && !exitHooked) {
    // One listener for every lock (a server with per-session locks holds hundreds).
    exitHooked = true;
    process.on("exit", () => {
      for (const held of [...heldLocks]) held();
    });
  }
  return { file, holder, release };
}

/** Release functions of the locks this process holds, run on exit. */
const heldLocks = new Set<() => void>();
let exitHooked = false;

/**
 * Moves a stale lock aside (rename is atomic), then checks that what it moved is the stale lock it
 * judged: a racing server may have taken over in between, and its fresh lock is put back.
 */
function takeOverStale(file: string, staleId: string | undefined): void {
  const aside = `${file}.stale.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    renameSync(file, aside);
  } catch {
    return; // Gone already: someone released or took it; the next attempt sees which.
  }
  const moved = readLock(aside);
  const movedId = typeof moved === "object" ? moved.holder.id : undefined;
  if (movedId !== staleId && movedId !== undefined) {
    try {
      linkSync(aside, file);
    } catch {
      // A third server took the folder meanwhile; it holds the lock now.
    }
  }
  tryUnlink(aside);
}

/** A lock's holder, or: `gone` (no lock), `forbidden` (cannot be read), `malformed` (not a lock we wrote). */
type ReadLock = { holder: LockHolder; mtimeMs: number } | "gone" | "forbidden" | "malformed";

function readLock(file: string): ReadLock {
  let text: string;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
    text = readFileSync(file, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "gone" : "forbidden";
  }
  try {
    const holder = JSON.parse(text) as LockHolder;
    if (typeof holder?.pid !== "number" || typeof holder.id !== "string") return "malformed";
    return { holder, mtimeMs };
  } catch {
    return "malformed";
  }
}

/** `alive` (checked by pid), `alive-remote` (recent heartbeat, cannot check by pid) or `dead`. */
function holderLiveness({ holder, mtimeMs }: { holder: LockHolder; mtimeMs: number }, file: string): "alive" | "alive-remote" | "dead" {
  const ourBoot = bootId();
  const sameHost = holder.hostname === os.hostname();
  if (sameHost && holder.bootId !== undefined && ourBoot !== undefined && holder.bootId !== ourBoot) return "dead"; // rebooted since
  if (!sameHost || holder.pidNamespace !== pidNamespace()) {
    const fresh = Date.now() - (statMtime(file) ?? mtimeMs) < LOCK_STALE_AFTER_MS;
    return fresh ? "alive-remote" : "dead";
  }
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return "dead";
    // EPERM: the process exists (another user's).
  }
  if (holder.startTicks !== undefined) {
    const now = processStartTicks(holder.pid);
    if (now !== undefined && now !== holder.startTicks) return "dead"; // the pid was reused
  }
  return "alive";
}

function statMtime(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/PID/stat (after the parenthesised command name, which may hold spaces). */
function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

function pidNamespace(): string | undefined {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return undefined;
  }
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

function tryUnlink(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
