/**
 * The journal of in-flight temporary files (issue #23 item 3). An atomic write makes its
 * temporary beside the file it replaces, anywhere in the workspace; a server killed with
 * SIGKILL between creating it and renaming it leaves it there. So each temporary is written down
 * in the state folder before it is created and crossed out once it is renamed or removed, and a
 * starting server removes the temporaries of every writer that is no longer running. The journal
 * also sweeps the state folder itself, whose own temporaries (the state file's) follow the same
 * naming. It never scans the workspace.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readFile, readdir, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../core/logger.js";
import { openDirUnconfined } from "./checked-dir.js";

/** Folder of the journal inside the state folder. */
export const TEMP_JOURNAL_DIR_NAME = "inflight-temporaries";

/** How temporaries are named: `.<name>.<pid>.<12 hex>.tmp`. */
const TEMP_NAME = /^\..*\.(\d+)\.[0-9a-f]{12}\.tmp$/s;

/** Longest file name most file systems take (NAME_MAX). */
const NAME_MAX_BYTES = 255;

/** The temporary's name for a file called `name`, written by this process. */
export function temporaryNameFor(name: string): string {
  const suffix = `.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  let stem = name;
  // Keep the temporary a legal name next to a long one: shorten the copied name, never the suffix.
  while (Buffer.byteLength(`.${stem}${suffix}`) > NAME_MAX_BYTES) stem = stem.slice(0, -1);
  return `.${stem}${suffix}`;
}

/** Whether `name` looks like one of our temporaries; its writer's pid when it does. */
export function temporaryWriterPid(name: string): number | undefined {
  const match = TEMP_NAME.exec(name);
  return match ? Number(match[1]) : undefined;
}

/** The start time of a process (field 22 of /proc/PID/stat), to tell a live writer from a reused pid. */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** Whether process `pid` runs (and, given its start time, is still the same process, not a reused pid). */
export function isAlive(pid: number, startTime: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const now = processStartTime(pid);
  return startTime === undefined || now === undefined || now === startTime;
}

const OWN_START_TIME = processStartTime(process.pid);
/** When this process started, by the wall clock. */
const PROCESS_STARTED_AT_MS = Date.now() - process.uptime() * 1000;

/** One journal entry: a temporary that may exist (`temp`), or several written together (`temps`). */
interface JournalRecord {
  temp?: string;
  temps?: string[];
  pid: number;
  start?: string;
}

/** The temporaries an entry names; undefined when it is not a well-formed entry. */
function temporariesOf(record: JournalRecord): string[] | undefined {
  if (typeof record.pid !== "number") return undefined;
  if (typeof record.temp === "string") return [record.temp];
  if (Array.isArray(record.temps) && record.temps.every((temp) => typeof temp === "string")) return record.temps;
  return undefined;
}

/** What a recovery did. */
export interface RecoveryReport {
  /** Temporaries removed. */
  removed: string[];
  /** Journal entries of writers still running, left alone. */
  live: number;
}

/** A journal entry held while a temporary exists; `end()` crosses it out. */
export interface JournalEntry {
  end(): Promise<void>;
}

/** The journal of one state folder. */
export class TempJournal {
  readonly dir: string;
  #ready: Promise<unknown> | undefined;

  constructor(stateDir: string) {
    this.dir = path.join(stateDir, TEMP_JOURNAL_DIR_NAME);
  }

  /**
   * Records that the temporary `tempPath` (its real path), or each of several written together, is
   * about to be created; call `end()` once every one has been renamed or removed. The entry is on
   * disk (in the page cache, which a killed process cannot lose) before this resolves.
   */
  async begin(tempPath: string | readonly string[]): Promise<JournalEntry> {
    this.#ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.#ready;
    const file = path.join(this.dir, `${process.pid}.${randomBytes(8).toString("hex")}.json`);
    const record: JournalRecord = {
      ...(typeof tempPath === "string" ? { temp: tempPath } : { temps: [...tempPath] }),
      pid: process.pid,
      ...(OWN_START_TIME === undefined ? {} : { start: OWN_START_TIME }),
    };
    // Written beside its name and renamed in, so that an entry is always whole (issue #19: a kill
    // during the write left 0-byte entries in the state folder); a torn `.partial` is swept by recover.
    const partial = `${file}${PARTIAL_SUFFIX}`;
    const writeEntry = async (): Promise<void> => {
      await writeFile(partial, JSON.stringify(record), { flag: "wx", mode: 0o600 });
      await rename(partial, file);
    };
    try {
      await writeEntry();
    } catch (error) {
      // The folder was removed under us: make it again once.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeEntry();
    }
    return { end: () => unlink(file).catch(() => undefined) };
  }

  /**
   * Removes the temporaries of writers that are gone: every journal entry whose process is not
   * running, and every temporary in the state folder (and its session folders) whose pid is not.
   * Safe to run while other servers use the same state folder: their entries are live.
   */
  async recover(log?: Logger): Promise<RecoveryReport> {
    const report: RecoveryReport = { removed: [], live: 0 };
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      const file = path.join(this.dir, name);
      if (name.endsWith(PARTIAL_SUFFIX)) {
        // An entry its writer was killed while writing: its temporary was not created yet.
        if (await writerGone(file, Number(name.slice(0, name.indexOf("."))))) await unlink(file).catch(() => undefined);
        continue;
      }
      let record: JournalRecord;
      try {
        record = JSON.parse(await readFile(file, "utf8")) as JournalRecord;
      } catch {
        // Torn by a crash while it was written: its temporary was not created yet.
        await unlink(file).catch(() => undefined);
        continue;
      }
      const temporaries = temporariesOf(record);
      if (temporaries === undefined) {
        await unlink(file).catch(() => undefined);
        continue;
      }
      if (isAlive(record.pid, record.start)) {
        report.live++;
        continue;
      }
      for (const temp of temporaries) if (await removeTemporary(temp)) report.removed.push(temp);
      await unlink(file).catch(() => undefined);
    }
    for (const temp of await strayStateTemporaries(path.dirname(this.dir))) {
      if (await removeTemporary(temp)) report.removed.push(temp);
    }
    if (report.removed.length > 0) log?.info({ removed: report.removed }, "removed temporary files left by a server that was killed");
    return report;
  }
}

/**
 * Removes the temporary at `tempPath` if it is still one: a regular file with a temporary's name,
 * in the folder it was created in (checked on the folder's descriptor, so a folder swapped for a
 * link since is not followed). True when a file was removed.
 */
async function removeTemporary(tempPath: string): Promise<boolean> {
  const name = path.basename(tempPath);
  if (temporaryWriterPid(name) === undefined) return false;
  let dir;
  try {
    dir = await openDirUnconfined(path.dirname(tempPath));
  } catch {
    return false;
  }
  try {
    if (dir.realPath !== path.dirname(tempPath)) return false;
    const info = await dir.lstatEntry(name).catch(() => undefined);
    if (!info?.isFile()) return false;
    await unlink(dir.at(name));
    return true;
  } catch {
    return false;
  } finally {
    await dir.close();
  }
}

/** Suffix of a journal entry while it is written (renamed to its `.json` name once whole). */
const PARTIAL_SUFFIX = ".partial";

/**
 * Whether the writer `pid` of `file` is gone. A restarted server can get its predecessor's pid
 * (containers): then the file's age tells.
 */
async function writerGone(file: string, pid: number): Promise<boolean> {
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  if (pid !== process.pid) return !isAlive(pid, undefined);
  const modified = (await stat(file).catch(() => undefined))?.mtimeMs ?? Infinity;
  return modified < PROCESS_STARTED_AT_MS;
}

/** Temporaries in the state folder and its direct subfolders whose writer is not running. */
async function strayStateTemporaries(stateDir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && depth === 0 && entry.name !== TEMP_JOURNAL_DIR_NAME) await visit(full, 1);
      const pid = entry.isFile() ? temporaryWriterPid(entry.name) : undefined;
      if (pid === undefined) continue;
      // A restarted server can get its predecessor's pid (containers): then the file's age tells.
      const modified = pid === process.pid ? ((await stat(full).catch(() => undefined))?.mtimeMs ?? Infinity) : 0;
      const stale = pid === process.pid ? modified < PROCESS_STARTED_AT_MS : !isAlive(pid, undefined);
      if (stale) out.push(full);
    }
  };
  await visit(stateDir, 0);
  return out;
}
