/**
 * The safe reader: opens without blocking, refuses FIFOs, devices and sockets, checks confinement on
 * the opened descriptor, and reads within a byte cap. Errno failures (ENOENT, EACCES, ...) are rethrown
 * as they are, so that each tool words them its own way.
 */
import { closeSync, constants, fstatSync, openSync, readSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { open, type FileHandle } from "node:fs/promises";
import type { Stats } from "node:fs";
import { ErrorCode } from "../errors/error-code.js";
import { ToolError } from "../errors/tool-error.js";
import { assertInsideRoots, assertNoNul, isWithinRoot, outsideRootsError, realPathOfHandle, realRoots, rethrowConfined, type FsScope } from "./confinement.js";
import { DELETED_SUFFIX, PROC_FD_AVAILABLE } from "./descriptor-path.js";
import { SYNC_READ_MAX_BYTES, syncFastPathEnabled, timedSync } from "./sync-fast-path.js";
import { errnoError } from "./errno.js";

/** Default byte cap of one read. */
export const DEFAULT_MAX_READ_BYTES = 64 * 1024 * 1024;

/** Flags of a read open: never block on a FIFO, never become a controlling terminal. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** A confined open file. The caller must close `handle`. */
export interface OpenedFile {
  handle: FileHandle;
  /** The real path of what was opened. */
  realPath: string;
  stat: Stats;
}

/** The bytes of a confined regular file. */
export interface ReadResult {
  bytes: Buffer;
  realPath: string;
  stat: Stats;
  /** True when the file is larger than the cap and only its first `maxBytes` were read. */
  truncated: boolean;
}

/** Describes a non-regular file kind for messages. */
export function specialKind(stat: Stats): string | undefined {
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  return undefined;
}

/**
 * Opens `absPath` for reading and checks it: inside the roots (on the descriptor's real path),
 * not special. A directory is returned as such (stat tells); the caller decides.
 */
export async function openConfined(scope: FsScope, absPath: string, displayPath: string = absPath): Promise<OpenedFile> {
  assertNoNul(absPath, displayPath);
  for (let attempt = 1; ; attempt++) {
    try {
      return await openAndCheck(scope, absPath, displayPath);
    } catch (error) {
      // ENOENT, ENOTDIR, ... of an outside path would tell what exists there: refused as outside first.
      if (!ToolError.is(error)) await rethrowConfined(scope, absPath, displayPath, error);
      // Only without procfs can an open not tell a replaced file from a swapped one; a replace is
      // over in microseconds, so trying again is what the caller would do anyway.
      if (!(ToolError.is(error) && error.retryable) || attempt >= OPEN_ATTEMPTS) throw error;
    }
  }
}

/** Opens made before a replace race is reported (no procfs only). */
const OPEN_ATTEMPTS = 3;

async function openAndCheck(scope: FsScope, absPath: string, displayPath: string): Promise<OpenedFile> {
  const handle = await open(absPath, READ_FLAGS);
  // The descriptor's path, the roots' real paths and the stat are independent trips to the thread
  // pool: started together, awaited in the order the checks need them (so the same error wins).
  const roots = scope.fsScope === "any" ? undefined : realRoots(scope);
  const statted = handle.stat();
  roots?.catch(() => undefined);
  statted.catch(() => undefined);
  try {
    const realPath = await realPathOfHandle(handle, absPath);
    await assertInsideRoots(scope, realPath, displayPath, roots);
    const stat = await statted;
    const kind = specialKind(stat);
    if (kind !== undefined) throw specialFileError(displayPath, kind);
    return { handle, realPath, stat };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** INVALID_INPUT for a FIFO, device or socket where a regular file was expected. */
export function specialFileError(displayPath: string, kind: string): ToolError {
  return new ToolError(ErrorCode.INVALID_INPUT, `Cannot read ${displayPath}: it is ${kind}, not a regular file.`, {
    suggestion: "Only regular files can be read.",
    filePath: displayPath,
  });
}

/** Reads a confined regular file, up to `maxBytes`. A directory fails with errno `EISDIR`. */
export async function readFileConfined(scope: FsScope, absPath: string, options: { displayPath?: string; maxBytes?: number } = {}): Promise<ReadResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_READ_BYTES;
  if (syncFastPathEnabled() && PROC_FD_AVAILABLE) {
    assertNoNul(absPath, options.displayPath ?? absPath);
    let fast: ReadResult | undefined;
    try {
      fast = timedSync(() => readSmallFileSync(scope, absPath, options.displayPath ?? absPath, maxBytes));
    } catch (error) {
      // As in openConfined: an errno failure of an outside path is refused as outside first.
      return rethrowConfined(scope, absPath, options.displayPath ?? absPath, error);
    }
    if (fast !== undefined) return fast;
  }
  const opened = await openConfined(scope, absPath, options.displayPath ?? absPath);
  try {
    if (opened.stat.isDirectory()) throw errnoError("EISDIR", `illegal operation on a directory, read '${absPath}'`);
    const chunks: Buffer[] = [];
    let total = 0;
    let truncated = false;
    // Buffers sized by the stat (one byte more, to see growth), not 1 MiB for a 6-byte file.
    const expected = opened.stat.isFile() ? opened.stat.size : 0;
    for (;;) {
      const left = expected + 1 - total;
      const want = Math.min(1024 * 1024, maxBytes + 1 - total, left > 0 ? left : 64 * 1024);
      const buffer = Buffer.allocUnsafe(want);
      const { bytesRead } = await opened.handle.read(buffer, 0, want, null);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) {
        truncated = true;
        break;
      }
      // A regular file read up to exactly its stat size by a short read is at its end: a read of a
      // regular file returns less than asked only there, so the confirming empty read is skipped.
      // (Pseudo-files whose size is not their length, like /proc's 0 or sysfs's 4096, never match.)
      if (expected > 0 && total === expected && bytesRead < want) break;
    }
    const bytes = Buffer.concat(chunks);
    return { bytes: truncated ? bytes.subarray(0, maxBytes) : bytes, realPath: opened.realPath, stat: opened.stat, truncated };
  } finally {
    await opened.handle.close();
  }
}

/** Options of {@link readFileConfinedNow}. */
export interface ReadNowOptions {
  displayPath?: string;
  maxBytes?: number;
  /**
   * Asked with the opened file's real path before anything is read: false leaves the read to the
   * caller's usual path (for instance when a lock on that path would have to be waited for).
   */
  admit?: (realPath: string) => boolean;
}

/**
 * The read of {@link readFileConfined} made now, synchronously, when it can be: a small regular
 * file, the synchronous fast path on (see sync-fast-path.ts), procfs present and `admit` agreeing.
 * Undefined otherwise, and on any failure (refusal or errno), with nothing read and nothing left
 * open: the caller then reads with {@link readFileConfined}, which gives the failure its words.
 * Because nothing awaits between the open and the return, a caller that checks a lock in `admit`
 * and records what it read before its next await has read exactly as if it had held that lock.
 */
export function readFileConfinedNow(scope: FsScope, absPath: string, options: ReadNowOptions = {}): ReadResult | undefined {
  if (!syncFastPathEnabled() || !PROC_FD_AVAILABLE || absPath.includes("\0")) return undefined;
  try {
    return timedSync(() => readSmallFileSync(scope, absPath, options.displayPath ?? absPath, options.maxBytes ?? DEFAULT_MAX_READ_BYTES, options.admit));
  } catch {
    return undefined;
  }
}

/**
 * The same checks and read as {@link readFileConfined}, synchronously (see sync-fast-path.ts), for
 * a small regular file: undefined (nothing read, the descriptor closed) when the file is larger
 * than {@link SYNC_READ_MAX_BYTES} or grows past it while read, and when /proc gives no path for
 * the descriptor; the caller then takes the asynchronous path. Refusals throw as there.
 */
function readSmallFileSync(
  scope: FsScope,
  absPath: string,
  displayPath: string,
  maxBytes: number,
  admit?: (realPath: string) => boolean,
): ReadResult | undefined {
  const fd = openSync(absPath, READ_FLAGS);
  try {
    let link: string;
    try {
      link = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return undefined;
    }
    if (!link.startsWith("/")) return undefined;
    // A file replaced or removed after the open reads as it was, at the path it had (realPathOfHandle's `as-was`).
    const realPath = link.endsWith(DELETED_SUFFIX) ? link.slice(0, -DELETED_SUFFIX.length) : link;
    if (scope.fsScope !== "any" && !insideRootsSync(scope.roots, realPath)) throw outsideRootsError(displayPath, realPath, scope.roots);
    if (admit !== undefined && !admit(realPath)) return undefined;
    const stat = fstatSync(fd);
    const kind = specialKind(stat);
    if (kind !== undefined) throw specialFileError(displayPath, kind);
    if (stat.isDirectory()) throw errnoError("EISDIR", `illegal operation on a directory, read '${absPath}'`);
    if (!stat.isFile() || stat.size > SYNC_READ_MAX_BYTES) return undefined;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const left = stat.size + 1 - total;
      const want = Math.min(maxBytes + 1 - total, left > 0 ? left : 64 * 1024);
      const buffer = Buffer.allocUnsafe(want);
      const bytesRead = readSync(fd, buffer, 0, want, null);
      if (bytesRead === 0) break;
      chunks.push(bytesRead === want ? buffer : buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) {
        const bytes = Buffer.concat(chunks);
        return { bytes: bytes.subarray(0, maxBytes), realPath, stat, truncated: true };
      }
      if (total === stat.size && bytesRead < want) break;
      if (total > SYNC_READ_MAX_BYTES) return undefined;
    }
    return { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), realPath, stat, truncated: false };
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether `realPath` lies inside a root, as the root is written or through its real path. The real
 * paths (a realpath(3) is a syscall per path component) are asked only when no written spelling
 * holds the path: a workspace given by its real path, the usual case, then costs no syscall (issue
 * #18: they were most of the syscalls of a one-line read).
 */
function insideRootsSync(roots: readonly string[], realPath: string): boolean {
  if (resolvedRoots(roots).some((root) => isWithinRoot(realPath, root))) return true;
  return roots.some((root) => isWithinRoot(realPath, realpathOr(root)));
}

/**
 * The roots as written, made absolute. Kept for a frozen list of absolute roots (a session hands out
 * one such list until its id changes), which no one can change under the cache and whose resolution
 * does not depend on the working directory: a confined read then resolves no path per call (#18).
 */
function resolvedRoots(roots: readonly string[]): readonly string[] {
  const known = RESOLVED_ROOTS.get(roots);
  if (known !== undefined) return known;
  const resolved = roots.map((root) => path.resolve(root));
  if (Object.isFrozen(roots) && roots.every((root) => path.isAbsolute(root))) RESOLVED_ROOTS.set(roots, resolved);
  return resolved;
}

const RESOLVED_ROOTS = new WeakMap<readonly string[], readonly string[]>();

function realpathOr(root: string): string {
  try {
    return realpathSync.native(root);
  } catch {
    return path.resolve(root);
  }
}
