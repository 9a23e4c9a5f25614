/**
 * Room for the old generation of a `grok-tools-server` process (issue #18;
 * docs/benchmarks-history.md, thirteenth pass). After each full collection V8 sets the next limit
 * from how fast that collection was: for this server's small old generation (~12 MB live) it left
 * ~12 MB of room, less than the young generation holds (16 MiB semi-spaces), and V8 started marking
 * again as soon as anything was promoted: 8 mark-compacts that freed nothing per 64 MiB of streamed
 * live output, half the server's CPU there. The command keeps about {@link OLD_GENERATION_ROOM_BYTES}
 * of room above what survived the last full collection, and leaves a heap large enough to have that
 * room anyway to V8's own factor.
 */
import { PerformanceObserver, constants, type PerformanceEntry } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/** The room kept above the old generation's live size after a full collection. */
export const OLD_GENERATION_ROOM_BYTES = 40 * 1024 * 1024;

/** 4×: V8's own largest growing factor. */
const MAX_PERCENT = 300;

/** Below this, V8's own factor (1.1× and up) gives the heap as much room or more: it is left to choose. */
const MIN_PERCENT = 30;

/**
 * V8's `--heap-growing-percent` (the next limit is 1 + percent/100 times the live size) that keeps
 * {@link OLD_GENERATION_ROOM_BYTES} of room for an old generation of `liveBytes`, at most 300; 0
 * (V8's own factor) for a heap large enough not to need it.
 */
export function heapGrowingPercent(liveBytes: number): number {
  if (!(liveBytes > 0)) return MAX_PERCENT;
  const percent = Math.ceil((OLD_GENERATION_ROOM_BYTES / liveBytes) * 100);
  return percent < MIN_PERCENT ? 0 : Math.min(MAX_PERCENT, percent);
}

/** Bytes in use in the old generation's spaces (all but the young generation's). */
function oldGenerationBytes(): number {
  let bytes = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (!space.space_name.startsWith("new_")) bytes += space.space_used_size;
  }
  return bytes;
}

/** A `gc` performance entry of a mark-compact (its `detail.kind`). */
function isFullCollection(entry: PerformanceEntry): boolean {
  return (entry as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
}

/**
 * Sets `--heap-growing-percent` for the old generation's size now and again after each full
 * collection (V8 reads the flag whenever it sets a new limit). For the command only, once started:
 * a host that embeds the server tunes its own heap. Returns a function that stops the updates.
 */
export function keepOldGenerationRoom(): () => void {
  let current = -1;
  const update = (): void => {
    const percent = heapGrowingPercent(oldGenerationBytes());
    if (percent === current) return;
    current = percent;
    setFlagsFromString(`--heap-growing-percent=${percent}`);
  };
  update();
  const observer = new PerformanceObserver((list) => {
    if (list.getEntries().some(isFullCollection)) update();
  });
  observer.observe({ entryTypes: ["gc"] });
  return () => observer.disconnect();
}
