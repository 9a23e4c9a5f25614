/**
 * Checked folders (decision D3, issue #12 item 6): a folder is opened once, confirmed inside the
 * session roots on its descriptor, and from then on every lookup below it goes through that
 * descriptor. On Linux `/proc/self/fd/N/<name>` resolves `<name>` inside the very folder the
 * descriptor holds (openat(2) semantics), so a folder swapped for a symlink after the check is
 * never followed. Path strings are only ever resolved once, by the kernel, and then checked.
 */
import { constants } from "node:fs";
import { lstat, mkdir, open, readFile, readdir, readlink, type FileHandle } from "node:fs/promises";
import type { Dirent, Stats } from "node:fs";
import path from "node:path";
import { MAX_SYMLINK_HOPS, assertNoNul, isWithinRoot, outsideRootsError, realPathOfHandle, realRoots, rethrowConfined, type FsScope } from "./confinement.js";
import { errnoCode, errnoError } from "./errno.js";
import { PROC_FD_AVAILABLE } from "./descriptor-path.js";

/** Flags of a folder open that may follow links (the kernel resolves, the descriptor is then checked). */
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY;
/** Flags of a child folder opened relative to a checked one: never through a link. */
const CHILD_DIR_FLAGS = DIR_FLAGS | constants.O_NOFOLLOW;
/** Flags of {@link CheckedDir.readTextNoFollow}: never through a link, never blocked on a FIFO. */
const TEXT_NOFOLLOW_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Throws unless `name` is one plain path component. */
export function assertEntryName(name: string): void {
  if (name === "" || name === "." || name === ".." || name.includes("/") || name.includes("\0")) {
    throw errnoError("EINVAL", `not a single path component: ${JSON.stringify(name)}`);
  }
}

/**
 * A folder held open and known to be inside the roots (or, while folders are being created, on the
 * way to one). Close it when done.
 */
export class CheckedDir {
  constructor(
    readonly handle: FileHandle,
    /** Where the folder was when it was checked. */
    readonly realPath: string,
  ) {}

  /** A path naming this very folder, whatever happens to its path meanwhile. */
  get path(): string {
    return PROC_FD_AVAILABLE ? `/proc/self/fd/${this.handle.fd}` : this.realPath;
  }

  /** A path naming `name` inside this very folder (the final component is not resolved by us). */
  at(name: string): string {
    assertEntryName(name);
    return `${this.path}/${name}`;
  }

  /** The real path `name` has below this folder. */
  realPathOf(name: string): string {
    return this.realPath === "/" ? `/${name}` : `${this.realPath}/${name}`;
  }

  /**
   * `error` as it would read had the folder been named by its real path: Node's errno messages
   * (and their `path`/`dest`) name the `/proc/self/fd/N/...` spelling the call used, which means
   * nothing to whoever reads the message (a model, a log). With `renamed`, the entry `from` (a
   * temporary) is named as `to` (the file it stands for). Anything but an error is returned as is.
   */
  explain(error: unknown, renamed?: { from: string; to: string }): unknown {
    // Duck-typed: errors of node:fs may come from another realm (Jest's VM modules).
    if (typeof error !== "object" || error === null || typeof (error as Error).message !== "string") return error;
    // `/proc/self/fd/3` must not match inside `/proc/self/fd/36` (the spelling has no regex characters).
    const spelled = new RegExp(`${this.path}(?![0-9])`, "g");
    const rewrite = (text: string): string => {
      const real = PROC_FD_AVAILABLE ? text.replace(spelled, () => this.realPath) : text;
      if (renamed === undefined) return real;
      // The rename of the temporary over its file then reads `'X' -> 'X'`: say it once.
      return real.replaceAll(`/${renamed.from}`, `/${renamed.to}`).replace(/'([^']*)' -> '\1'/g, "'$1'");
    };
    const fields = error as NodeJS.ErrnoException & { dest?: unknown };
    fields.message = rewrite(fields.message);
    if (typeof fields.path === "string") fields.path = rewrite(fields.path);
    if (typeof fields.dest === "string") fields.dest = rewrite(fields.dest);
    return error;
  }

  /** The entries of this folder (read from the descriptor, never from the path). */
  entries(): Promise<Dirent[]> {
    return readdir(this.path, { withFileTypes: true }).catch((error: unknown) => {
      throw this.explain(error);
    });
  }

  /** `lstat` of an entry: a link is reported as a link. */
  lstatEntry(name: string): Promise<Stats> {
    return lstat(this.at(name)).catch((error: unknown) => {
      throw this.explain(error);
    });
  }

  /**
   * The UTF-8 text of the file `relative` below this folder (one or more components, none of them
   * empty, `.` or `..`), opened without following a link in its last component and without waiting
   * on a FIFO: for small files of rules (`.gitignore`, `.git/info/exclude`), read whole.
   */
  async readTextNoFollow(relative: string): Promise<string> {
    for (const part of relative.split("/")) assertEntryName(part);
    return await readFile(`${this.path}/${relative}`, { encoding: "utf8", flag: TEXT_NOFOLLOW_FLAGS }).catch((error: unknown) => {
      throw this.explain(error);
    });
  }

  /**
   * Opens the child folder `name` without following a link (ENOTDIR, or ELOOP, when it is one or
   * something else). A real child of a checked folder lies inside the same roots.
   */
  async openChild(name: string): Promise<CheckedDir> {
    const handle = await open(this.at(name), CHILD_DIR_FLAGS).catch((error: unknown) => {
      throw this.explain(error);
    });
    return new CheckedDir(handle, this.realPathOf(name));
  }

  /** Opens this folder's parent (the physical one, as `..` from the descriptor), unchecked. */
  async openParent(): Promise<CheckedDir> {
    const handle = await open(`${this.path}/..`, DIR_FLAGS);
    try {
      return new CheckedDir(handle, await realPathOfHandle(handle, `${this.realPath}/..`, { removed: "enoent" }));
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** How a folder opened by {@link openDirConfined} must relate to the roots. */
type DirRole = "inside" | "toward-root";

/** What the caller named: its display path, and what it is after below the folder being opened. */
interface Naming {
  displayPath: string;
  entry: string | undefined;
}

function below(naming: Naming, name: string): Naming {
  return { displayPath: naming.displayPath, entry: naming.entry === undefined ? name : `${name}/${naming.entry}` };
}

async function checkDir(scope: FsScope, realPath: string, role: DirRole, naming: Naming): Promise<void> {
  if (scope.fsScope === "any") return;
  const roots = await realRoots(scope);
  if (roots.some((root) => isWithinRoot(realPath, root))) return;
  // While creating folders, an ancestor of a root that does not exist yet may be passed through.
  if (role === "toward-root" && roots.some((root) => isWithinRoot(root, realPath))) return;
  // Name what the caller asked for (the file below the folder), as a file-level check would.
  const shown = naming.entry !== undefined ? path.join(realPath, naming.entry) : realPath;
  throw outsideRootsError(naming.displayPath, shown, scope.roots);
}

/** Options of {@link openDirConfined}. */
export interface OpenDirOptions {
  /** The path as the caller wrote it, for messages. */
  displayPath?: string;
  /** Create missing folders (mode 0777 before the umask), each one below a checked folder. */
  create?: boolean;
  /** The entry of the folder the caller is after, named in a PERMISSION_DENIED message. */
  forEntry?: string;
}

/**
 * Opens the folder `absPath` and checks, on the descriptor, that it lies inside the session roots
 * (PERMISSION_DENIED otherwise; no check with `fsScope: "any"`). The kernel resolves the path,
 * links included, exactly once; what it reached is what is checked and what the caller then uses.
 * With `create`, missing folders are made one at a time, each inside its checked parent and
 * opened without following links; a dangling link on the way is followed like the kernel would.
 * Errno failures (ENOENT, ENOTDIR, EACCES, ELOOP) are rethrown as they are.
 */
export async function openDirConfined(scope: FsScope, absPath: string, options: OpenDirOptions = {}): Promise<CheckedDir> {
  const displayPath = options.displayPath ?? absPath;
  assertNoNul(absPath, displayPath);
  return openDir(scope, absPath, { displayPath, entry: options.forEntry }, options.create === true, "inside", { left: MAX_SYMLINK_HOPS }).catch(
    (error: unknown) => rethrowConfined(scope, absPath, displayPath, error),
  );
}

async function openDir(scope: FsScope, absPath: string, naming: Naming, create: boolean, role: DirRole, hops: { left: number }): Promise<CheckedDir> {
  let handle: FileHandle;
  try {
    handle = await open(absPath, DIR_FLAGS);
  } catch (error) {
    if (!create || errnoCode(error) !== "ENOENT") throw error;
    return createDir(scope, absPath, naming, role, hops);
  }
  try {
    const realPath = await realPathOfHandle(handle, absPath, { removed: "enoent" });
    await checkDir(scope, realPath, role, naming);
    return new CheckedDir(handle, realPath);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Creates the missing folder `absPath` below its (checked) parent, component by component. */
async function createDir(scope: FsScope, absPath: string, naming: Naming, role: DirRole, hops: { left: number }): Promise<CheckedDir> {
  const trimmed = absPath.length > 1 ? absPath.replace(/\/+$/, "") : absPath;
  const name = path.basename(trimmed);
  const parentPath = path.dirname(trimmed);
  if (trimmed === parentPath) throw errnoError("ENOENT", `no such file or directory, open '${absPath}'`);
  const parent = await openDir(scope, parentPath, name === "." || name === ".." ? naming : below(naming, name), true, "toward-root", hops);
  try {
    if (name === "." || name === "") return await reopenChecked(scope, parent.path, parent.realPath, naming, role);
    if (name === "..") return await reopenChecked(scope, `${parent.path}/..`, `${parent.realPath}/..`, naming, role);
    const existing = await parent.lstatEntry(name).catch((error: unknown) => {
      if (errnoCode(error) === "ENOENT") return undefined;
      throw error;
    });
    if (existing === undefined) {
      // Check where the new folder would be before making it, so nothing is created outside.
      await checkDir(scope, parent.realPathOf(name), role, naming);
      try {
        await mkdir(parent.at(name));
      } catch (error) {
        if (errnoCode(error) !== "EEXIST") throw parent.explain(error);
      }
    }
    if (existing?.isSymbolicLink()) {
      // A (dangling) link where a folder is missing: follow it as the kernel would, then check again.
      if (--hops.left < 0) throw errnoError("ELOOP", `too many levels of symbolic links, open '${absPath}'`);
      const target = await readlink(parent.at(name)).catch((error: unknown) => {
        // EINVAL: the link was replaced since the lstat; ENOENT: it went away. Start over (hops bound it).
        const code = errnoCode(error);
        if (code === "EINVAL" || code === "ENOENT") return undefined;
        throw parent.explain(error);
      });
      if (target === undefined) return await openDir(scope, absPath, naming, true, role, hops);
      const next = target.startsWith("/") ? target : `${parent.realPath}/${target}`;
      return await openDir(scope, next, naming, true, role, hops);
    }
    // A link made here since the check makes this fail (ENOTDIR/ELOOP): it is never followed.
    const child = await parent.openChild(name);
    try {
      await checkDir(scope, child.realPath, role, naming);
      return child;
    } catch (error) {
      await child.close();
      throw error;
    }
  } finally {
    await parent.close();
  }
}

/** Opens `procPath` (a folder named through `base`'s descriptor; `fallbackPath` without procfs) and checks it. */
async function reopenChecked(scope: FsScope, procPath: string, fallbackPath: string, naming: Naming, role: DirRole): Promise<CheckedDir> {
  const handle = await open(procPath, DIR_FLAGS);
  try {
    const realPath = await realPathOfHandle(handle, fallbackPath, { removed: "enoent" });
    await checkDir(scope, realPath, role, naming);
    return new CheckedDir(handle, realPath);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Opens the folder `absPath` with no roots check: for the server's own folders (the state
 * folder), which are not session roots but must be written just as safely.
 */
export function openDirUnconfined(absPath: string, options: { create?: boolean } = {}): Promise<CheckedDir> {
  return openDirConfined({ roots: [], fsScope: "any" }, absPath, options);
}
