/**
 * Writes a session's resources to `<sessionDir>/resources_state.json`: debounced
 * (latest snapshot wins), atomic (temp, fsync, rename, folder fsync), and flushed
 * on demand and at close (spec §5.3).
 */
import { rm, readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "./logger.js";
import { replaceFileAtomic } from "../fs/atomic-write.js";

/** File name kept from the reference. */
export const STATE_FILE_NAME = "resources_state.json";
/** Version of the on-disk layout, stored beside the data. */
export const STATE_SCHEMA_VERSION = 1;
/** Debounce of background writes. */
export const STATE_WRITE_DEBOUNCE_MS = 500;

/** Writes snapshots of one session's state. */
export class StatePersister {
  readonly file: string;
  readonly #snapshot: () => unknown;
  readonly #log: Logger;
  #timer: NodeJS.Timeout | undefined;
  #dirty = false;
  #writing: Promise<void> = Promise.resolve();

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

  /** Schedules a write of the latest snapshot. */
  markDirty(): void {
    this.#dirty = true;
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush().catch((error: unknown) => this.#log.error({ err: error }, "tool state write failed"));
    }, STATE_WRITE_DEBOUNCE_MS);
    this.#timer.unref();
  }

  /** Writes the pending snapshot now (a fresh one), if anything changed. */
  async flush(force = false): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (!this.#dirty && !force) return this.#writing;
    this.#dirty = false;
    const data = { schema_version: STATE_SCHEMA_VERSION, ...(this.#snapshot() as object) };
    this.#writing = this.#writing.then(() => writeFileAtomic(this.file, JSON.stringify(data, null, 2) + "\n"));
    return this.#writing;
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
