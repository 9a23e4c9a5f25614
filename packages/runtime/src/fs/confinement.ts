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
  begin(tempPath: string | readonly string[]): Promise<{ end(): Promise<void> }>;
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
 * Where a path that may not exist yet would land: its realpath when it exists, else the path the
 * kernel would walk to create it (links, dangling ones too, followed before any `..` after them). Used for early checks and lock keys;
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
  const absolute = absPath.startsWith("/") ? absPath : `${process.cwd()}/${absPath}`;
  // An existing path: the kernel's own answer, in one call (the common case, and the hot one).
  // Else (missing, below a file, a link cycle, a name too long...) the walk below tells where it would land.
  return realpath(absolute).catch(() => resolveMissing(absolute));
}

/**
 * Resolves a path that does not (fully) exist component by component, the way the kernel would
 * walk it and `mkdir -p` would then create it: a link, dangling ones included, is replaced by its
 * target; a `..` applies to what was resolved so far, links already followed (never lexically:
 * `ws/link/..` is the link target's parent, not `ws`). From the first missing component on, the
 * rest is created as real folders, so there `..` is lexical.
 */
async function resolveMissing(absolute: string): Promise<string> {
  // Components still to walk, the next one last.
  const pending = absolute.split("/").reverse();
  let current = "/";
  let exists = true;
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.pop()!;
    if (part === "" || part === ".") continue;
    if (part === "..") {
      // `current` never holds a link (each was replaced by its target), so its parent is real.
      current = path.dirname(current);
      continue;
    }
    const next = current === "/" ? `/${part}` : `${current}/${part}`;
    if (!exists) {
      current = next;
      continue;
    }
    // Missing, below a file, unreadable, a name too long: nothing usable is there, so the rest is
    // what would be created (and the open that follows reports the errno in the tool's words).
    const info = await lstat(next).catch(() => undefined);
    if (info === undefined) {
      exists = false;
      current = next;
    } else if (info.isSymbolicLink()) {
      if (++hops > MAX_SYMLINK_HOPS) throw new ToolError(ErrorCode.INVALID_INPUT, `Too many levels of symbolic links: ${absolute}`, { filePath: absolute });
      const target = await readlink(next);
      if (target.startsWith("/")) current = "/";
      pending.push(...target.split("/").reverse());
    } else {
      current = next;
    }
  }
  return current;
}

/**
 * PERMISSION_DENIED when `absPath` would land outside the roots, judged on the path (links followed,
 * dangling ones too, see {@link resolveForCreate}) and never on whether it exists: a probe of an
 * outside path gets the same answer for a file that is there and one that is not (issue #19).
 * Tools call it before they report anything that depends on existence (missing, a folder, not a
 * folder); confined opens call it when the open itself fails. It does not replace the descriptor
 * check that follows every open, which is what holds in a race. A path it cannot resolve (a NUL
 * byte, EACCES on an ancestor) passes: the tool's own check then reports it in its words.
 */
export async function assertPathInsideRoots(scope: FsScope, absPath: string, displayPath: string = absPath): Promise<void> {
  if (scope.fsScope === "any" || absPath.includes("\0")) return;
  let real: string;
  try {
    real = await resolveForCreate(absPath);
  } catch (error) {
    if (ToolError.is(error) && error.code === ErrorCode.INVALID_INPUT) throw error;
    return;
  }
  await assertInsideRoots(scope, real, displayPath);
}

/**
 * Rethrows `error` (a failed confined open of `absPath`) as PERMISSION_DENIED when the path lies
 * outside the roots, so that ENOENT, ENOTDIR or ELOOP never tell what exists outside; else as it was.
 */
export async function rethrowConfined(scope: FsScope, absPath: string, displayPath: string, error: unknown): Promise<never> {
  if (!ToolError.is(error)) await assertPathInsideRoots(scope, absPath, displayPath);
  throw error;
}
