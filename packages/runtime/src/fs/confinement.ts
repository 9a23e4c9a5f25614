/**
 * Path confinement (decision D3): a file may be used only when its real path lies inside one of the
 * session's roots. Checks are made on what was actually opened, never on the path string alone.
 */
import { realpath, lstat, readlink } from "node:fs/promises";
import path from "node:path";
import type { FileHandle } from "node:fs/promises";
import { ErrorCode } from "../errors/error-code.js";
import { ToolError } from "../errors/tool-error.js";
import { descriptorPath } from "./descriptor-path.js";
import { errnoError } from "./errno.js";

/**
 * Where atomic writes note a temporary before creating it, so that a restart removes it (the state
 * folder's `TempJournal` is the one implementation; declared here so that confinement needs no journal).
 */
export interface TemporaryNotes {
  begin(tempPath: string): Promise<{ end(): Promise<void> }>;
}

/** The part of a session that confinement needs. */
export interface FsScope {
  readonly roots: readonly string[];
  readonly fsScope: "workspace" | "any";
  /** Where atomic writes note their temporaries, so a restart can remove them (issue #23 item 3). */
  readonly tempJournal?: TemporaryNotes;
}

/** Symlink hops followed while resolving one path (the kernel's own limit). */
export const MAX_SYMLINK_HOPS = 40;

/** The roots' real paths (a root given through a symlink matches both spellings). */
export async function realRoots(scope: FsScope): Promise<string[]> {
  // Resolved side by side: each realpath is a trip to the thread pool, and they do not depend on each other.
  const reals = await Promise.all(scope.roots.map((root) => realpath(root).catch(() => path.resolve(root))));
  const out = new Set<string>();
  scope.roots.forEach((root, i) => {
    out.add(path.resolve(root));
    out.add(reals[i]!);
  });
  return [...out];
}

/** Whether `candidate` equals `root` or lies below it, comparing whole path components. */
export function isWithinRoot(candidate: string, root: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith("/") ? root : `${root}/`;
  return candidate.startsWith(prefix);
}

/** INVALID_INPUT for a path with a NUL byte (the kernel would refuse it with a less useful error). */
export function assertNoNul(absPath: string, displayPath: string = absPath): void {
  if (absPath.includes("\0")) throw new ToolError(ErrorCode.INVALID_INPUT, `Invalid path (contains a NUL byte): ${JSON.stringify(displayPath)}`);
}

/**
 * Throws PERMISSION_DENIED unless `realPath` lies inside a root (always passes with `fsScope: "any"`).
 * `roots`: the roots' real paths when the caller started resolving them earlier (see openConfined).
 */
export async function assertInsideRoots(scope: FsScope, realPath: string, displayPath: string, roots?: Promise<string[]>): Promise<void> {
  if (scope.fsScope === "any") return;
  const real = await (roots ?? realRoots(scope));
  if (real.some((root) => isWithinRoot(realPath, root))) return;
  throw outsideRootsError(displayPath, realPath, scope.roots);
}

/** The PERMISSION_DENIED error for a path that resolves outside the roots. */
export function outsideRootsError(displayPath: string, realPath: string, roots: readonly string[]): ToolError {
  const resolved = realPath === displayPath ? "" : ` (it resolves to ${realPath})`;
  const list = roots.length === 0 ? "(none)" : roots.join(", ");
  return new ToolError(
    ErrorCode.PERMISSION_DENIED,
    `Permission denied: ${displayPath} is outside the folders this session may access${resolved}. Allowed: ${list}`,
    {
      suggestion: `Use a path inside ${list}. The server operator can allow more folders with --allow-path.`,
      filePath: displayPath,
    },
  );
}

/** The error of an open that raced a replacement it could not tell apart (no procfs): retry it. */
export function replacedWhileOpeningError(openedAs: string): ToolError {
  return new ToolError(ErrorCode.EXECUTION_FAILED, `${openedAs} was replaced while it was being opened`, {
    suggestion: "Retry the call.",
    retryable: true,
    filePath: openedAs,
  });
}

/** What {@link realPathOfHandle} does with a descriptor whose file or folder has no name any more. */
export interface RealPathOptions {
  /**
   * `as-was` (files): a file replaced (renamed over) or removed after the open still reads its old
   * content, and its path is where it was, so a reader racing an atomic replace sees the old
   * version instead of an error (issue #13). `enoent` (folders): nothing can be made or listed in a
   * removed folder, so it is reported as missing.
   */
  removed?: "as-was" | "enoent";
}

/**
 * The real path of an open file or folder: the kernel's `/proc/self/fd/N` link where there is one,
 * else the realpath of `openedAs` verified to be the same inode as the descriptor (a mismatch is a
 * retryable EXECUTION_FAILED: without procfs a replace cannot be told from a swap). The one place
 * that turns a descriptor into the path that confinement checks.
 */
export async function realPathOfHandle(handle: FileHandle, openedAs: string, options: RealPathOptions = {}): Promise<string> {
  const where = await descriptorPath(handle.fd);
  if (where !== undefined) {
    if (where.deleted && options.removed === "enoent") {
      throw errnoError("ENOENT", `no such file or directory, it was removed: '${openedAs}'`);
    }
    return where.path;
  }
  const real = await realpath(openedAs);
  const [byHandle, byPath] = await Promise.all([handle.stat(), lstat(real)]);
  if (byHandle.dev !== byPath.dev || byHandle.ino !== byPath.ino) throw replacedWhileOpeningError(openedAs);
  return real;
}

/**
 * Where a path that may not exist yet would land: the realpath of its nearest existing ancestor plus
 * the missing components (dangling symlinks are followed). Used for early checks and lock keys;
 * what is finally written is checked again on descriptors. A path changing while it is resolved is
 * resolved again; one that keeps changing is a retryable EXECUTION_FAILED, never an errno error.
 */
export async function resolveForCreate(absPath: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await resolveForCreateOnce(absPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      // ENOENT, ENOTDIR: a component went away; EINVAL: a link was replaced by a file meanwhile.
      if (ToolError.is(error) || (code !== "ENOENT" && code !== "ENOTDIR" && code !== "EINVAL")) throw error;
      if (attempt >= RESOLVE_ATTEMPTS) {
        throw new ToolError(ErrorCode.EXECUTION_FAILED, `${absPath} changed while it was being resolved`, {
          suggestion: "Retry the call.",
          retryable: true,
          filePath: absPath,
          cause: error,
        });
      }
    }
  }
}

/** Resolutions tried before a path that keeps changing is reported. */
const RESOLVE_ATTEMPTS = 3;

async function resolveForCreateOnce(absPath: string): Promise<string> {
  let current = path.resolve(absPath);
  for (let hop = 0; hop < MAX_SYMLINK_HOPS; hop++) {
    const info = await lstat(current).catch(() => undefined);
    if (info?.isSymbolicLink()) {
      const existing = await realpath(current).catch(() => undefined);
      if (existing !== undefined) return existing;
      current = path.resolve(path.dirname(current), await readlink(current));
      continue;
    }
    if (info !== undefined) return realpath(current);
    const missing: string[] = [path.basename(current)];
    let ancestor = path.dirname(current);
    while (ancestor !== path.dirname(ancestor) && (await lstat(ancestor).catch(() => undefined)) === undefined) {
      missing.unshift(path.basename(ancestor));
      ancestor = path.dirname(ancestor);
    }
    const realAncestor = await realpath(ancestor);
    return path.join(realAncestor, ...missing);
  }
  throw new ToolError(ErrorCode.INVALID_INPUT, `Too many levels of symbolic links: ${absPath}`, { filePath: absPath });
}
