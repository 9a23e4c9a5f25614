/**
 * The one writer of file tools (decision D3): confined, atomic (temp in the same folder, fsync,
 * rename, folder fsync), keeping the mode of the file it replaces and writing through in-root symlinks.
 */
import { constants } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { ErrorCode } from "../errors/error-code.js";
import { ToolError } from "../errors/tool-error.js";
import { assertInsideRoots, realPathOfHandle, resolveForCreate, type FsScope } from "./confinement.js";
import { errnoCode, errnoError, openConfined } from "./safe-read.js";
import type { FileReadTracker } from "./read-tracker.js";

/** Outcome of {@link writeFileConfined}. */
export interface WriteResult {
  /** The real path written (the target of an in-root symlink, not the link). */
  realPath: string;
  /** True when the file did not exist before. */
  created: boolean;
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
  let existing: { realPath: string; mode: number } | undefined;
  try {
    const opened = await openConfined(scope, absPath, displayPath);
    try {
      if (opened.stat.isDirectory()) throw errnoError("EISDIR", `illegal operation on a directory, open '${absPath}'`);
      if (opened.stat.nlink > 1) {
        throw new ToolError(ErrorCode.PERMISSION_DENIED, `Permission denied: ${displayPath} has ${opened.stat.nlink} hard links; replacing it would break them.`, {
          suggestion: "Edit the file through another tool, or remove the extra hard links first.",
          filePath: displayPath,
        });
      }
      existing = { realPath: opened.realPath, mode: opened.stat.mode & 0o7777 };
    } finally {
      await opened.handle.close();
    }
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw error;
  }
  const target = existing?.realPath ?? (await resolveForCreate(absPath));
  if (existing === undefined) await assertInsideRoots(scope, target, displayPath);
  await mkdir(path.dirname(target), { recursive: true });
  await replaceFileAtomic(target, content, options.mode ?? existing?.mode, async (tempHandle, tempPath) => {
    // The folder may have been swapped for a symlink after the check: verify where the temp landed.
    const realTemp = await realPathOfHandle(tempHandle, tempPath);
    await assertInsideRoots(scope, path.join(path.dirname(realTemp), path.basename(target)), displayPath);
  });
  // Our own write: record it so that the next edit of this file needs no re-read (decision D2).
  options.tracker?.recordWrite(target, content, await stat(target));
  return { realPath: target, created: existing === undefined };
}

/**
 * Atomic replace: temp file in the same folder (O_EXCL), write, fsync, rename over `file`, fsync the
 * folder. `verify` runs on the open temp file before anything is renamed.
 */
export async function replaceFileAtomic(
  file: string,
  content: string | Uint8Array,
  mode?: number,
  verify?: (tempHandle: import("node:fs/promises").FileHandle, tempPath: string) => Promise<void>,
): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode ?? 0o644);
  try {
    try {
      await verify?.(handle, temp);
      // The creation mode was filtered by the umask; set the kept mode exactly.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  const dirHandle = await open(dir, "r");
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}
