/**
 * The one writer of file tools (decision D3): confined, atomic (temp in the same folder, fsync,
 * rename, folder fsync), keeping the mode of the file it replaces and writing through in-root
 * symlinks. Every step after the folder check goes through the checked folder's descriptor, so a
 * folder swapped for a link meanwhile cannot send the temporary, the rename or a new folder
 * elsewhere (issue #12 item 6). Temporaries are journalled (issue #23 item 3). A batch of files
 * written together syncs each of their folders once, after all its renames (issue #18).
 */
import { constants, fstatSync } from "node:fs";
import { link, open, rename, unlink, readlink } from "node:fs/promises";
import type { Stats } from "node:fs";
import path from "node:path";
import { ErrorCode } from "../errors/error-code.js";
import { ToolError } from "../errors/tool-error.js";
import { MAX_SYMLINK_HOPS, assertNoNul, rethrowConfined, type FsScope, type TemporaryNotes } from "./confinement.js";
import { openDirConfined, openDirUnconfined, type CheckedDir } from "./checked-dir.js";
import { errnoCode, errnoError } from "./errno.js";
import { specialFileError, specialKind } from "./safe-read.js";
import type { FileReadTracker } from "./read-tracker.js";
import { temporaryNameFor, type JournalEntry } from "./temp-journal.js";

/** Outcome of {@link writeFileConfined}. */
export interface WriteResult {
  /** The real path written (the target of an in-root symlink, not the link). */
  realPath: string;
  /** True when the file did not exist before. */
  created: boolean;
}

/** A file to write: its checked folder, its name there, and what is there now. */
interface WriteTarget {
  dir: CheckedDir;
  name: string;
  existing: Stats | undefined;
}

/** The folder and final name of a file path (trailing slashes dropped); EISDIR when it names no file. */
function splitFilePath(absPath: string, syscall: string): { parent: string; name: string } {
  const trimmed = absPath.length > 1 ? absPath.replace(/\/+$/, "") : absPath;
  const name = path.basename(trimmed);
  if (name === "" || name === "." || name === ".." || trimmed === "/") throw errnoError("EISDIR", `illegal operation on a directory, ${syscall} '${absPath}'`);
  return { parent: path.dirname(trimmed), name };
}

/**
 * Finds where a write of `absPath` lands: its folder opened and checked (missing folders made,
 * each inside its checked parent), and the final component, following in-root symlinks as the
 * kernel would. The caller must close `dir`.
 */
/** Looks at an entry that keeps changing between link and file this many times before giving up. */
const WRITE_TARGET_ATTEMPTS = 3;

async function resolveWriteTarget(scope: FsScope, absPath: string, displayPath: string, create: boolean): Promise<WriteTarget> {
  // `name/` names a folder: the kernel refuses to create or write a file there (EISDIR), and so do we.
  if (absPath.length > 1 && absPath.endsWith("/")) throw errnoError("EISDIR", `illegal operation on a directory, open '${absPath}'`);
  let current = absPath;
  let changes = 0;
  for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop++) {
    const { parent, name } = splitFilePath(current, "open");
    const dir = await openDirConfined(scope, parent, { displayPath, create, forEntry: name });
    let keep = false;
    try {
      const existing = await dir.lstatEntry(name).catch((error: unknown) => {
        if (errnoCode(error) === "ENOENT") return undefined;
        throw error;
      });
      if (existing?.isSymbolicLink()) {
        // Write through the link (it stays a link), wherever it points, once that is checked in turn.
        const target = await readlink(dir.at(name)).catch((error: unknown) => {
          // EINVAL: the link was replaced by a file since the lstat; ENOENT: it went away. Look again.
          const code = errnoCode(error);
          if (code === "EINVAL" || code === "ENOENT") return undefined;
          throw dir.explain(error);
        });
        if (target === undefined) {
          if (++changes >= WRITE_TARGET_ATTEMPTS) {
            throw new ToolError(ErrorCode.EXECUTION_FAILED, `${displayPath} changed while it was being written`, {
              suggestion: "Retry the call.",
              retryable: true,
              filePath: displayPath,
            });
          }
          hop--;
          continue;
        }
        current = target.startsWith("/") ? target : `${dir.realPath}/${target}`;
        continue;
      }
      if (existing?.isDirectory()) throw errnoError("EISDIR", `illegal operation on a directory, open '${absPath}'`);
      const kind = existing === undefined ? undefined : specialKind(existing);
      if (kind !== undefined) throw specialFileError(displayPath, kind);
      keep = true;
      return { dir, name, existing };
    } finally {
      if (!keep) await dir.close();
    }
  }
  throw new ToolError(ErrorCode.INVALID_INPUT, `Too many levels of symbolic links: ${displayPath}`, { filePath: displayPath });
}

/**
 * Writes `content` to `absPath` inside the session roots. An existing file keeps its mode; a symlink
 * inside the roots is written through (the link stays a link); a file with several hard links is
 * refused, since replacing it would silently split the links. With `tracker`, the write is recorded
 * in the session's read tracker. Callers serialize edits of one file with `PATH_LOCKS` (path-lock.ts).
 */
export async function writeFileConfined(
  scope: FsScope,
  absPath: string,
  content: string | Uint8Array,
  options: { displayPath?: string; mode?: number; tracker?: FileReadTracker } = {},
): Promise<WriteResult> {
  const target = await checkTarget(scope, { absPath, content, ...options });
  try {
    const { dir, name, tempName } = target;
    const entry = await scope.tempJournal?.begin(dir.realPathOf(tempName));
    let written: Stats;
    try {
      written = await renameIntoDir(dir, name, tempName, content, target.mode);
    } finally {
      await entry?.end();
    }
    await dir.handle.sync();
    const realPath = dir.realPathOf(name);
    // Our own write: record it so that the next edit of this file needs no re-read (decision D2).
    options.tracker?.recordWrite(realPath, content, written);
    return { realPath, created: target.created };
  } finally {
    await target.dir.close();
  }
}

/** One file of {@link writeFilesConfined}. */
export interface ConfinedWrite {
  absPath: string;
  content: string | Uint8Array;
  /** How the path is named in errors; `absPath` when omitted. */
  displayPath?: string;
  /** The mode of the file; an existing file keeps its own when omitted. */
  mode?: number;
}

/** A file to replace, checked, with its temporary's name; the caller must close `dir`. */
interface CheckedTarget {
  dir: CheckedDir;
  name: string;
  tempName: string;
  /** The mode to write: the one asked for, else the replaced file's. */
  mode: number | undefined;
  created: boolean;
}

/** Finds and checks where `file` is written (see {@link writeFileConfined}); its folder is left open. */
async function checkTarget(scope: FsScope, file: ConfinedWrite): Promise<CheckedTarget> {
  const { absPath } = file;
  const displayPath = file.displayPath ?? absPath;
  assertNoNul(absPath, displayPath);
  // EISDIR, ENOTDIR, ... of an outside path would tell what exists there: refused as outside first.
  const target = await resolveWriteTarget(scope, absPath, displayPath, true).catch((error: unknown) => rethrowConfined(scope, absPath, displayPath, error));
  const { dir, name, existing } = target;
  if (existing !== undefined && existing.nlink > 1) {
    await dir.close();
    throw new ToolError(ErrorCode.PERMISSION_DENIED, `Permission denied: ${displayPath} has ${existing.nlink} hard links; replacing it would break them.`, {
      suggestion: "Edit the file through another tool, or remove the extra hard links first.",
      filePath: displayPath,
    });
  }
  const mode = file.mode ?? (existing ? existing.mode & 0o7777 : undefined);
  return { dir, name, tempName: temporaryNameFor(name), mode, created: existing === undefined };
}

/**
 * Writes several files as {@link writeFileConfined} does each, together: every temporary is
 * written, fsynced and renamed, then each distinct folder is fsynced once (one fsync makes all the
 * renames in a folder durable), and only then does this resolve. The temporaries are journalled
 * in one entry. Each file is atomic on its own (old or new, never torn), not the batch: the
 * outcome of each file is reported in order, so that a caller can restore the ones written when
 * another failed. A file whose folder could not be synced is reported failed (its new content may
 * be in place, as with {@link writeFileConfined}). The files must be distinct real files; callers
 * hold their `PATH_LOCKS`.
 */
export async function writeFilesConfined(
  scope: FsScope,
  files: readonly ConfinedWrite[],
  options: { tracker?: FileReadTracker } = {},
): Promise<Array<PromiseSettledResult<WriteResult>>> {
  const checked = await Promise.allSettled(files.map((file) => checkTarget(scope, file)));
  const targets = checked.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : undefined));
  try {
    // Each file's outcome so far: its check, then its rename (a Stats).
    const outcomes: Array<PromiseSettledResult<unknown>> = [...checked];
    const ready = targets.flatMap((target, i) => (target === undefined ? [] : [{ target, i }]));
    // One journal entry for the batch (issue #18: an entry is a file written, renamed and removed,
    // three trips to the thread pool per temporary otherwise), written before any temporary exists.
    let entry: JournalEntry | undefined;
    try {
      entry = ready.length === 0 ? undefined : await scope.tempJournal?.begin(ready.map(({ target }) => target.dir.realPathOf(target.tempName)));
    } catch (error) {
      for (const { i } of ready) outcomes[i] = { status: "rejected", reason: error };
      ready.length = 0;
    }
    try {
      const renamed = await Promise.allSettled(
        ready.map(({ target }, k) => renameIntoDir(target.dir, target.name, target.tempName, files[ready[k]!.i]!.content, target.mode)),
      );
      renamed.forEach((outcome, k) => (outcomes[ready[k]!.i] = outcome));
    } finally {
      await entry?.end();
    }
    // Folders told apart by device and inode, not by path: a folder replaced between two of the
    // opens has the same path but is another folder, whose renames need their own fsync.
    const syncs = new Map<string, Promise<void>>();
    const folderSync = outcomes.map((outcome, i) => {
      if (outcome.status === "rejected") return undefined;
      const dir = targets[i]!.dir;
      const id = folderIdentity(dir);
      let sync = syncs.get(id);
      if (sync === undefined) {
        sync = dir.handle.sync().catch((error: unknown) => {
          throw dir.explain(error);
        });
        // Observed below, per file; an unobserved rejection here would be reported as unhandled.
        sync.catch(() => undefined);
        syncs.set(id, sync);
      }
      return sync;
    });
    await Promise.allSettled(syncs.values());
    return await Promise.all(
      outcomes.map(async (outcome, i): Promise<PromiseSettledResult<WriteResult>> => {
        if (outcome.status === "rejected") return outcome;
        try {
          await folderSync[i];
        } catch (reason) {
          return { status: "rejected", reason };
        }
        const { dir, name, created } = targets[i]!;
        const realPath = dir.realPathOf(name);
        options.tracker?.recordWrite(realPath, files[i]!.content, outcome.value as Stats);
        return { status: "fulfilled", value: { realPath, created } };
      }),
    );
  } finally {
    await Promise.all(targets.map((target) => target?.dir.close()));
  }
}

/** Device and inode of a checked folder (synchronous: an fstat of an open folder never waits on I/O). */
function folderIdentity(dir: CheckedDir): string {
  const info = fstatSync(dir.handle.fd, { bigint: true });
  return `${info.dev}:${info.ino}`;
}

/** Creates `file` (O_EXCL, no link followed; mode 0644 unless given), writes `content` and fsyncs it. */
async function writeNewFile(file: string, content: string | Uint8Array, mode: number | undefined): Promise<void> {
  const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode ?? 0o644);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Creates `absPath` inside the session roots only if nothing is there, not even a link (EEXIST
 * otherwise): its folder is opened and checked (missing folders made inside checked parents) and
 * the file is created through that descriptor with `O_EXCL`. Not atomic: for files seeded empty or
 * small (a plan file), where "never overwrite" matters more than "never seen half-written".
 */
export async function createFileConfined(
  scope: FsScope,
  absPath: string,
  content: string | Uint8Array = "",
  options: { displayPath?: string; mode?: number } = {},
): Promise<WriteResult> {
  const displayPath = options.displayPath ?? absPath;
  assertNoNul(absPath, displayPath);
  const { parent, name } = splitFilePath(absPath, "open");
  const dir = await openDirConfined(scope, parent, { displayPath, create: true, forEntry: name });
  try {
    await writeNewFile(dir.at(name), content, options.mode);
    await dir.handle.sync();
    return { realPath: dir.realPathOf(name), created: true };
  } catch (error) {
    throw dir.explain(error);
  } finally {
    await dir.close();
  }
}

/**
 * Removes the file (or link) `absPath` inside the session roots, through its checked folder: a
 * folder swapped for a link meanwhile is never followed. A folder is refused with EISDIR.
 */
export async function removeFileConfined(scope: FsScope, absPath: string, options: { displayPath?: string } = {}): Promise<void> {
  const displayPath = options.displayPath ?? absPath;
  assertNoNul(absPath, displayPath);
  const { parent, name } = splitFilePath(absPath, "unlink");
  const dir = await openDirConfined(scope, parent, { displayPath, forEntry: name });
  try {
    if ((await dir.lstatEntry(name)).isDirectory()) throw errnoError("EISDIR", `illegal operation on a directory, unlink '${absPath}'`);
    await unlink(dir.at(name));
  } catch (error) {
    throw dir.explain(error);
  } finally {
    await dir.close();
  }
}

/** Options of {@link createUniqueFileInDir}. */
export interface UniqueFileOptions {
  /** Mode of the new file (before the umask); 0644 when omitted. */
  mode?: number;
  /** Where the temporary is noted, so that a restart removes it. */
  journal?: TemporaryNotes;
  /** The name the temporary's name is derived from ({@link temporaryNameFor}); `file` when omitted. */
  tempFor?: string;
}

/**
 * Writes `content` as a new file in the checked folder `dir` under the first name `nextName()`
 * yields that is free, and returns that name. A journalled temporary (O_EXCL, no link followed) is
 * written and fsynced, then hard-linked to the name — link() refuses an existing name, so no file is
 * ever replaced, not even one a concurrent writer just made, and none is seen half-written — and
 * removed. Errno failures are rethrown as they are (name them with `dir.explain`).
 */
export async function createUniqueFileInDir(
  dir: CheckedDir,
  nextName: () => string,
  content: string | Uint8Array,
  options: UniqueFileOptions = {},
): Promise<string> {
  const tempName = temporaryNameFor(options.tempFor ?? "file");
  const entry = await options.journal?.begin(dir.realPathOf(tempName));
  try {
    await writeNewFile(dir.at(tempName), content, options.mode);
    try {
      for (;;) {
        const name = nextName();
        try {
          await link(dir.at(tempName), dir.at(name));
          return name;
        } catch (error) {
          if (errnoCode(error) !== "EEXIST") throw error;
        }
      }
    } finally {
      await unlink(dir.at(tempName)).catch(() => undefined);
    }
  } finally {
    await entry?.end();
  }
}

/**
 * Atomic replace of `name` inside the checked folder `dir`: the temporary `tempName` created there
 * (O_EXCL, no link followed), written, fsynced and renamed over `name` within the same folder, or
 * removed on failure. The caller journals the temporary around this call; the rename is durable
 * once the caller fsyncs the folder. Returns the stat of the written file.
 */
async function renameIntoDir(dir: CheckedDir, name: string, tempName: string, content: string | Uint8Array, mode: number | undefined): Promise<Stats> {
  const handle = await open(dir.at(tempName), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode ?? 0o644).catch(
    (error: unknown) => {
      throw dir.explain(error, { from: tempName, to: name });
    },
  );
  let written: Stats;
  try {
    try {
      await handle.writeFile(content);
      written = await handle.stat();
      // The creation mode was filtered by the umask: set the kept mode exactly, before the fsync.
      // Only when it differs (one trip to the thread pool less per file in the usual case).
      if (mode !== undefined && (written.mode & 0o7777) !== mode) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(dir.at(tempName), dir.at(name));
  } catch (error) {
    await unlink(dir.at(tempName)).catch(() => undefined);
    // Name the file being written, not the descriptor path or the temporary (a detail of ours).
    throw dir.explain(error, { from: tempName, to: name });
  }
  return written;
}

/**
 * Atomic replace of `file` with no roots check, for the server's own files (the state file):
 * the same temporary, fsync, rename and folder fsync as {@link writeFileConfined}, missing
 * folders created.
 */
export async function replaceFileAtomic(file: string, content: string | Uint8Array, mode?: number, options: { journal?: TemporaryNotes } = {}): Promise<void> {
  const dir = await openDirUnconfined(path.dirname(file), { create: true });
  try {
    const name = path.basename(file);
    const tempName = temporaryNameFor(name);
    const entry = await options.journal?.begin(dir.realPathOf(tempName));
    try {
      await renameIntoDir(dir, name, tempName, content, mode);
    } finally {
      await entry?.end();
    }
    await dir.handle.sync();
  } finally {
    await dir.close();
  }
}
