/**
 * The synchronous fast path of small reads (issue #18): the metadata syscalls of a confined read
 * (realpath, open, the descriptor's /proc link, fstat) and the read of a small file made on the
 * event loop, because on a local disk each takes microseconds while a trip to libuv's thread pool
 * costs 30-150 µs of wake-ups on a loaded machine, several times the whole rest of a call.
 * A sync step slower than {@link SLOW_SYNC_MS} (a slow or network file system) turns the fast path
 * off for a cool-down, after which the next read tries it again. A single slow step is as often the
 * scheduler or a garbage collection as the disk: on a busy machine the old "off for the life of the
 * process" rule tripped within seconds and left every later read on the thread pool (profiled: 64
 * reads in flight ran at a quarter of an empty call's rate). So the cool-down starts short and
 * doubles each time a step is slow again, up to {@link MAX_COOL_DOWN_MS}: a file system that is
 * really slow costs one slow step per cool-down, soon one per few minutes; a run of
 * {@link FAST_STEPS_TO_FORGIVE} fast steps puts the cool-down back at its start.
 */
import { realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { performance } from "node:perf_hooks";

/** A synchronous step slower than this means the file system may not be local-disk fast. */
export const SLOW_SYNC_MS = 20;
/** Files up to this size are read synchronously; larger ones through the thread pool. */
export const SYNC_READ_MAX_BYTES = 256 * 1024;
/** The first cool-down after a slow step. */
export const FIRST_COOL_DOWN_MS = 1000;
/** The longest cool-down (reached after 9 slow steps without a fast run between them). */
export const MAX_COOL_DOWN_MS = 5 * 60_000;
/** Fast steps in a row after which the cool-down is back at {@link FIRST_COOL_DOWN_MS}. */
export const FAST_STEPS_TO_FORGIVE = 256;

/** Off by {@link setSyncFastPath} (tests), whatever the timing says. */
let forcedOff = false;
/** `performance.now()` until which the fast path is off after a slow step (0: on). */
let offUntil = 0;
let coolDown = FIRST_COOL_DOWN_MS;
let fastInARow = 0;

/** Whether the synchronous fast path is on. */
export function syncFastPathEnabled(): boolean {
  if (forcedOff) return false;
  if (offUntil === 0) return true;
  if (performance.now() < offUntil) return false;
  offUntil = 0;
  return true;
}

/** Turns the fast path on or off (tests); on also ends a cool-down and resets its length. */
export function setSyncFastPath(on: boolean): void {
  forcedOff = !on;
  if (on) {
    offUntil = 0;
    coolDown = FIRST_COOL_DOWN_MS;
    fastInARow = 0;
  }
}

/** The cool-down a slow step would start now (tests, diagnostics). */
export function nextCoolDownMs(): number {
  return coolDown;
}

/** Runs a synchronous step, starting a cool-down of the fast path when it was slow. */
export function timedSync<T>(step: () => T): T {
  const started = performance.now();
  try {
    return step();
  } finally {
    const finished = performance.now();
    if (finished - started > SLOW_SYNC_MS) {
      offUntil = finished + coolDown;
      coolDown = Math.min(coolDown * 2, MAX_COOL_DOWN_MS);
      fastInARow = 0;
    } else if (++fastInARow >= FAST_STEPS_TO_FORGIVE) {
      coolDown = FIRST_COOL_DOWN_MS;
      fastInARow = 0;
    }
  }
}

/** `fs.promises.realpath` (the same native realpath(3), the same errors), synchronous while the fast path is on. */
export async function realpathFast(target: string): Promise<string> {
  if (!syncFastPathEnabled()) return realpath(target);
  return timedSync(() => realpathSync.native(target));
}
