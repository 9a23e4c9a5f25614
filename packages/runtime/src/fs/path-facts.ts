/**
 * What a path is before a tool opens it: metadata and the resolved path, never contents, with no
 * roots check. Tools use them to pick the reference's message (missing, a folder, a file) or a lock
 * key before the real work; every read, listing or write then goes through a confined open that is
 * checked on its descriptor, which is what holds in a race. Failures reject exactly as `node:fs`
 * does (the errno error), so callers keep their error texts.
 */
import { realpath, stat } from "node:fs/promises";
import { statSync, type Stats } from "node:fs";
import { assertPathInsideRoots, type FsScope } from "./confinement.js";

/** `stat` of `absPath` (links followed); rejects with the errno error. Never act on it without a confined open. */
export function statPath(absPath: string): Promise<Stats> {
  return stat(absPath);
}

/**
 * {@link statPath} of a path the model named: PERMISSION_DENIED first when it lies outside the roots,
 * so that whether it exists, or is a folder, is never told about an outside path (issue #19).
 */
export async function statPathConfined(scope: FsScope, absPath: string, displayPath: string = absPath): Promise<Stats> {
  await assertPathInsideRoots(scope, absPath, displayPath);
  return stat(absPath);
}

/** {@link statPath}, synchronous: for one local check on a hot path, where a thread-pool round trip costs more than the call. */
export function statPathSync(absPath: string): Stats {
  return statSync(absPath);
}

/** The canonical path of an existing `absPath` (links resolved); rejects with the errno error (ENOENT when missing). */
export function resolveRealPath(absPath: string): Promise<string> {
  return realpath(absPath);
}
