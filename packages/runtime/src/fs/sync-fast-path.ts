/**
 * The synchronous fast path of small reads (issue #18): the metadata syscalls of a confined read
 * (realpath, open, the descriptor's /proc link, fstat) and the read of a small file made on the
 * event loop, because on a local disk each takes microseconds while a trip to libuv's thread pool
 * costs 30-150 µs of wake-ups on a loaded machine, several times the whole rest of a call.
 * A sync step that ever takes longer than {@link SLOW_SYNC_MS} (a slow or network file system)
 * turns the fast path off for the life of the process: from then on every read is asynchronous.
 */
import { realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { performance } from "node:perf_hooks";

/** A synchronous step slower than this means the file system is not local-disk fast. */
export const SLOW_SYNC_MS = 20;
/** Files up to this size are read synchronously; larger ones through the thread pool. */
export const SYNC_READ_MAX_BYTES = 256 * 1024;

let enabled = true;

/** Whether the synchronous fast path is on. */
export function syncFastPathEnabled(): boolean {
  return enabled;
}

/** Turns the fast path on or off (tests; a slow step turns it off by itself). */
export function setSyncFastPath(on: boolean): void {
  enabled = on;
}

/** Runs a synchronous step, turning the fast path off when it was slow. */
export function timedSync<T>(step: () => T): T {
  const started = performance.now();
  try {
    return step();
  } finally {
    if (performance.now() - started > SLOW_SYNC_MS) enabled = false;
  }
}

/** `fs.promises.realpath` (the same native realpath(3), the same errors), synchronous while the fast path is on. */
export async function realpathFast(target: string): Promise<string> {
  if (!enabled) return realpath(target);
  return timedSync(() => realpathSync.native(target));
}
