/**
 * Path confinement (decision D3) and atomic writes for the Codex file tools. A path must resolve,
 * symlinks followed, to a place inside one of the session's roots; writes go through a temp file
 * and a rename so that a reader never sees half a file.
 */
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { ErrorCode, ToolError, writeFileAtomic, type SessionHandle } from "@grok-tools/runtime";
import { errnoCode } from "./io-error.js";

/** What a file tool knows about where it may go. */
export type RootsView = Pick<SessionHandle, "roots" | "fsScope">;

/** Real path of `target`, resolving symlinks in every existing component; missing tails are appended as they are. */
export async function realPathOf(target: string): Promise<string> {
  const absolute = path.resolve(target);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch (error) {
      const code = errnoCode(error);
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** Whether `inner` equals `outer` or lies below it, compared by whole path components. */
export function isWithin(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === "" || (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative));
}

/** The message of a refusal to touch a path outside the roots. */
export function outsideRootsMessage(target: string, roots: readonly string[]): string {
  return `Access denied: ${target} is outside the allowed directories (${roots.join(", ")}).`;
}

/**
 * Refuses (PERMISSION_DENIED) a path whose real location is outside every root of the session.
 * With `fsScope: "any"` (or no roots) every path is allowed, like the reference.
 */
export async function assertInsideRoots(session: RootsView, target: string): Promise<void> {
  if (session.fsScope === "any" || session.roots.length === 0) return;
  const real = await realPathOf(target);
  for (const root of session.roots) {
    const realRoot = await realPathOf(root);
    if (isWithin(realRoot, real)) return;
  }
  throw new ToolError(ErrorCode.PERMISSION_DENIED, outsideRootsMessage(target, session.roots), {
    filePath: target,
    suggestion: "Use a path inside the workspace.",
    details: { path: target, roots: session.roots },
  });
}

/** An `EISDIR` error shaped like the ones `node:fs` throws. */
function isDirectoryError(target: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`EISDIR: illegal operation on a directory, open '${target}'`);
  error.code = "EISDIR";
  error.path = target;
  return error;
}

/**
 * Writes `content` atomically (temp file, fsync, rename, fsync of the folder), creating parent folders
 * and keeping the file's mode. A symlink is written through, to its target. A folder is never replaced.
 */
export async function writeThroughAtomic(target: string, content: string | Uint8Array): Promise<void> {
  const real = await realPathOf(target);
  const info = await lstat(real).catch(() => undefined);
  if (info?.isDirectory()) throw isDirectoryError(target);
  await writeFileAtomic(real, content);
}
