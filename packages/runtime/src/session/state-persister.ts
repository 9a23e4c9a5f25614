/**
 * Writes a session's resources to `<sessionDir>/resources_state.json` (spec §5.3): atomic (temp,
 * fsync, rename, folder fsync) and durable on demand. `commit()` resolves once every change made
 * before it is on disk; the session awaits it before a call answers (issue 23.1). Commits group:
 * one write at a time, and every commit that arrives while a write is in flight shares the next
 * write, which snapshots the state when it starts. Changes nobody commits are written by a
 * fallback timer.
 */
import { rm, readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../core/logger.js";
import { replaceFileAtomic } from "../fs/atomic-write.js";

/** File name kept from the reference. */
export const STATE_FILE_NAME = "resources_state.json";
/** Version of the on-disk layout, stored beside the data. */
export const STATE_SCHEMA_VERSION = 1;
/** Delay of the fallback write of changes that no call commits. */
export const STATE_WRITE_DEBOUNCE_MS = 500;

/** Writes snapshots of one session's state. */
export class StatePersister {
  readonly file: string;
  readonly #snapshot: () => unknown;
  readonly #log: Logger;
  #timer: NodeJS.Timeout | undefined;
  /** Changes seen (markDirty calls) and changes covered by the last completed write. */
  #changes = 0;
  #durable = 0;
  /** The write in flight and the change count its snapshot covers. */
  #writing: Promise<void> | undefined;
  #writingCovers = 0;
  /** The write queued behind the one in flight, shared by every commit that arrives meanwhile. */
  #next: Promise<void> | undefined;

  constructor(dir: string, snapshot: () => unknown, log: Logger) {
    this.file = path.join(dir, STATE_FILE_NAME);
    this.#snapshot = snapshot;
    this.#log = log;
  }

  /** Reads the persisted snapshot, or undefined when absent or unreadable (logged). */
  async load(): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.#log.warn({ err: error, file: this.file }, "cannot read persisted tool state");
      return undefined;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        this.#log.warn({ file: this.file }, "persisted tool state is not a JSON object; ignoring it");
        return undefined;
      }
      const { schema_version: version, ...rest } = parsed as Record<string, unknown>;
      if (version !== undefined && version !== STATE_SCHEMA_VERSION) {
        this.#log.warn({ file: this.file, version, expected: STATE_SCHEMA_VERSION }, "persisted tool state has another schema_version; loading what fits");
      }
      return rest;
    } catch (error) {
      this.#log.warn({ err: error, file: this.file }, "persisted tool state is not valid JSON; ignoring it");
      return undefined;
    }
  }

  /** Records a change; a fallback write follows unless a commit writes it first. */
  markDirty(): void {
    this.#changes++;
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.commit().catch((error: unknown) => this.#log.error({ err: error, file: this.file }, "tool state write failed"));
    }, STATE_WRITE_DEBOUNCE_MS);
    this.#timer.unref();
  }

  /** Whether some change is not on disk yet. */
  get hasPendingChanges(): boolean {
    return this.#changes > this.#durable;
  }

  /**
   * Resolves once every change recorded before this call is on disk; rejects with the write's
   * error when that write fails (the changes stay pending, so the next commit writes them again).
   */
  commit(): Promise<void> {
    const target = this.#changes;
    if (target <= this.#durable) return Promise.resolve();
    if (this.#writing !== undefined && this.#writingCovers >= target) return this.#writing;
    // A queued write snapshots later than now. Never start a second write beside one in flight:
    // their renames could land out of order and leave the older snapshot on disk.
    if (this.#next !== undefined) return this.#next;
    if (this.#writing === undefined) return this.#startWrite();
    this.#next = this.#writing
      .catch(() => undefined)
      .then(() => {
        this.#next = undefined;
        return this.#changes > this.#durable ? this.#startWrite() : undefined;
      });
    return this.#next;
  }

  /** Writes the pending changes now (with `force`, a fresh snapshot even when nothing changed). */
  flush(force = false): Promise<void> {
    if (force) this.#changes++;
    return this.commit();
  }

  #startWrite(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const covers = this.#changes;
    const write = (async () => {
      const data = { schema_version: STATE_SCHEMA_VERSION, ...(this.#snapshot() as object) };
      await writeFileAtomic(this.file, JSON.stringify(data, null, 2) + "\n");
      this.#durable = Math.max(this.#durable, covers);
    })().finally(() => {
      if (this.#writing === write) this.#writing = undefined;
    });
    this.#writing = write;
    this.#writingCovers = covers;
    return write;
  }
}

/**
 * Atomic write of a file the server owns (not a tool's file: no confinement): a directory in the
 * way is removed first (spec §5.3), then the one atomic replace of the fs layer.
 */
export async function writeFileAtomic(file: string, content: string | Uint8Array, mode?: number): Promise<void> {
  const target = await stat(file).catch(() => undefined);
  if (target?.isDirectory()) await rm(file, { recursive: true, force: true });
  await replaceFileAtomic(file, content, mode ?? (target?.isFile() ? target.mode & 0o7777 : undefined));
}
