/**
 * Where an open descriptor is, from the kernel (`/proc/self/fd/N`, Linux). Everything that checks
 * "what was actually opened" (decision D3) asks here, never the path string it opened.
 */
import { existsSync } from "node:fs";
import { readlink } from "node:fs/promises";

/** Whether this system has `/proc/self/fd` (Linux): the descriptor-relative lookups depend on it. */
export const PROC_FD_AVAILABLE: boolean = process.platform === "linux" && existsSync("/proc/self/fd");

/** The kernel's suffix for a descriptor whose file has no name any more. */
export const DELETED_SUFFIX = " (deleted)";

/**
 * The real path of an open descriptor. A file replaced or removed after it was opened reads as
 * `<path> (deleted)`: the old inode is still what the descriptor reads, and `<path>` is where it
 * was, so that is the path returned, with `deleted: true`. Undefined without procfs.
 */
export async function descriptorPath(fd: number): Promise<{ path: string; deleted: boolean } | undefined> {
  if (!PROC_FD_AVAILABLE) return undefined;
  let link: string;
  try {
    link = await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
  if (!link.startsWith("/")) return undefined;
  const deleted = link.endsWith(DELETED_SUFFIX);
  return { path: deleted ? link.slice(0, -DELETED_SUFFIX.length) : link, deleted };
}
