/**
 * The read tracker (decision D2): which files this session has read, by content hash. Edit tools
 * refuse files never read (FILE_NOT_READ) or changed on disk since (FILE_EXTERNALLY_MODIFIED).
 * Serialized session state, so it travels in GetToolState.
 */
import { hash } from "node:crypto";
import { ErrorCode } from "../errors/error-code.js";
import { ToolError } from "../errors/tool-error.js";
import { defineResource } from "../tool/resource.js";
import type { ResourceStore } from "../session/resource-store.js";
import { isPlainObject, isSafeKey } from "../core/plain-object.js";

/** What is remembered of one read or write. */
export interface FileReadRecord {
  sha256: string;
  size: number;
  mtimeMs: number;
}

/** Real path → record. */
export type FileReadTrackerState = Record<string, FileReadRecord>;

function isRecord(value: unknown): value is FileReadRecord {
  return isPlainObject(value) && typeof value.sha256 === "string" && typeof value.size === "number" && typeof value.mtimeMs === "number";
}

/** The tracker's state resource (`state.grok_build.FileReadTracker`). */
export const FILE_READ_TRACKER = defineResource<FileReadTrackerState>({
  id: "grok_build.FileReadTracker",
  category: "state",
  initial: () => ({}),
  decode: (json) => {
    if (!isPlainObject(json)) return undefined;
    const out: FileReadTrackerState = {};
    for (const [file, record] of Object.entries(json)) if (isSafeKey(file) && isRecord(record)) out[file] = record;
    return out;
  },
});

/**
 * sha256 of some bytes (a string as its UTF-8), hex. The one-shot `crypto.hash` rather than a Hash
 * object: the same digest, without the object and its three calls into the binding (a third of the
 * cost for the small files most reads are, issue #18).
 */
export function sha256Hex(bytes: Uint8Array | string): string {
  return hash("sha256", bytes, "hex");
}

/** Options of {@link FileReadTracker.checkBeforeEdit}. */
export interface CheckBeforeEditOptions {
  /** The tool's `skip_read_before_edit` param: lifts the must-have-read rule (not the modified check). */
  skipReadBeforeEdit?: boolean;
  /** The path as the model wrote it, for messages. */
  displayPath?: string;
  /** The client name of the read tool, for the suggestion. */
  readToolName?: string;
}

/** Session-bound access to the tracker. Key every call by the file's real path. */
export class FileReadTracker {
  constructor(private readonly resources: ResourceStore) {}

  /** The record of a file, if any. */
  get(realPath: string): FileReadRecord | undefined {
    const state = this.resources.get(FILE_READ_TRACKER);
    return Object.hasOwn(state, realPath) ? state[realPath] : undefined;
  }

  /** Records a successful read of the whole file's bytes (any range of it was shown). */
  recordRead(realPath: string, bytes: Uint8Array, stat: { mtimeMs: number }): void {
    this.#put(realPath, { sha256: sha256Hex(bytes), size: bytes.byteLength, mtimeMs: stat.mtimeMs });
  }

  /** Records a write made by our own tools, so a following edit needs no re-read. */
  recordWrite(realPath: string, bytes: Uint8Array | string, stat: { mtimeMs: number } = { mtimeMs: Date.now() }): void {
    const size = typeof bytes === "string" ? Buffer.byteLength(bytes) : bytes.byteLength;
    this.#put(realPath, { sha256: sha256Hex(bytes), size, mtimeMs: stat.mtimeMs });
  }

  /**
   * Checks an edit of an existing file whose current bytes are `current`: FILE_NOT_READ when never
   * read (unless skipped), FILE_EXTERNALLY_MODIFIED when its content differs from the last read or write.
   */
  checkBeforeEdit(realPath: string, current: Uint8Array, options: CheckBeforeEditOptions = {}): void {
    const shown = options.displayPath ?? realPath;
    const readTool = options.readToolName ?? "the read tool";
    const record = this.get(realPath);
    if (record === undefined) {
      if (options.skipReadBeforeEdit === true) return;
      throw new ToolError(ErrorCode.FILE_NOT_READ, `File has not been read yet: ${shown}. Read it first before editing it.`, {
        suggestion: `Call ${readTool} on ${shown}, then retry the edit.`,
        filePath: shown,
      });
    }
    if (record.sha256 !== sha256Hex(current)) {
      throw new ToolError(ErrorCode.FILE_EXTERNALLY_MODIFIED, `File has been modified since it was last read: ${shown}. Read it again before editing it.`, {
        suggestion: `Call ${readTool} on ${shown} to see its current content, then retry the edit.`,
        filePath: shown,
        details: { recorded: record, current: { sha256: sha256Hex(current), size: current.byteLength } },
      });
    }
  }

  #put(realPath: string, record: FileReadRecord): void {
    if (!isSafeKey(realPath)) return;
    // The same record again (a re-read of an unchanged file) leaves the state as it is: no change, no state write.
    this.resources.update(FILE_READ_TRACKER, (state) =>
      sameRecord(Object.hasOwn(state, realPath) ? state[realPath] : undefined, record) ? state : { ...state, [realPath]: record },
    );
  }
}

function sameRecord(a: FileReadRecord | undefined, b: FileReadRecord): boolean {
  return a !== undefined && a.sha256 === b.sha256 && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** The tracker of a session: `readTracker(ctx.session).recordRead(...)`. */
export function readTracker(session: { resources: ResourceStore }): FileReadTracker {
  return new FileReadTracker(session.resources);
}
