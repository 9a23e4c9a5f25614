/**
 * The one writer of file tools (decision D3): confined, atomic (temp in the same folder, fsync,
 * rename, folder fsync), keeping the mode of the file it replaces and writing through in-root
 * symlinks. Every step after the folder check goes through the checked folder's descriptor, so a
 * folder swapped for a link meanwhile cannot send the temporary, the rename or a new folder
 * elsewhere (issue #12 item 6). Temporaries are journalled (issue #23 item 3).
 */
import { constants } from "node:fs";
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
import { temporaryNameFor } from "./temp-journal.js";

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
async function resolveWriteTarget(scope: FsScope, absPath: string, displayPath: string, create: boolean): Promise<WriteTarget> {
  // `name/` names a folder: the kernel refuses to create or write a file there (EISDIR), and so do we.
  if (absPath.length > 1 && absPath.endsWith("/")) throw errnoError("EISDIR", `illegal operation on a directory, open '${absPath}'`);
  let current = absPath;
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
          throw dir.explain(error);
        });
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
  const displayPath = options.displayPath ?? absPath;
  assertNoNul(absPath, displayPath);
  // EISDIR, ENOTDIR, ... of an outside path would tell what exists there: refused as outside first.
  const target = await resolveWriteTarget(scope, absPath, displayPath, true).catch((error: unknown) => rethrowConfined(scope, absPath, displayPath, error));
  try {
    const { dir, name, existing } = target;
    if (existing !== undefined && existing.nlink > 1) {
      throw new ToolError(ErrorCode.PERMISSION_DENIED, `Permission denied: ${displayPath} has ${existing.nlink} hard links; replacing it would break them.`, {
        suggestion: "Edit the file through another tool, or remove the extra hard links first.",
        filePath: displayPath,
      });
    }
    const written = await replaceInDir(dir, name, content, options.mode ?? (existing ? existing.mode & 0o7777 : undefined), scope.tempJournal);
    const realPath = dir.realPathOf(name);
    // Our own write: record it so that the next edit of this file needs no re-read (decision D2).
    options.tracker?.recordWrite(realPath, content, written);
    return { realPath, created: existing === undefined };
  } finally {
    await target.dir.close();
  }
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
 * Atomic replace of `name` inside the checked folder `dir`: a journalled temporary created there
 * (O_EXCL, no link followed), written, fsynced, renamed over `name` within the same folder, then
 * the folder fsynced. Returns the stat of the written file.
 */
async function replaceInDir(
  dir: CheckedDir,
  name: string,
  content: string | Uint8Array,
  mode: number | undefined,
  journal: TemporaryNotes | undefined,
): Promise<Stats> {
  const tempName = temporaryNameFor(name);
  const entry = await journal?.begin(dir.realPathOf(tempName));
  let written: Stats;
  try {
    const handle = await open(dir.at(tempName), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode ?? 0o644).catch(
      (error: unknown) => {
        throw dir.explain(error, { from: tempName, to: name });
      },
    );
    try {
      try {
        // The creation mode was filtered by the umask; set the kept mode exactly.
        if (mode !== undefined) await handle.chmod(mode);
        await handle.writeFile(content);
        await handle.sync();
        written = await handle.stat();
      } finally {
        await handle.close();
      }
      await rename(dir.at(tempName), dir.at(name));
    } catch (error) {
      await unlink(dir.at(tempName)).catch(() => undefined);
      // Name the file being written, not the descriptor path or the temporary (a detail of ours).
      throw dir.explain(error, { from: tempName, to: name });
    }
  } finally {
    await entry?.end();
  }
  await dir.handle.sync();
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
    await replaceInDir(dir, path.basename(file), content, mode, options.journal);
  } finally {
    await dir.close();
  }
}
