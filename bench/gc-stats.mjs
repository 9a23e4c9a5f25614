// Preload for a profiled server (issue #18): counts the garbage collections of the process it is
// loaded into and their pause time, by kind, and writes the totals as JSON to
// `$GROK_GC_STATS_DIR/gc-stats-<pid>.json` (default: the OS temp folder) every 250 ms and at exit.
// The server-CPU rows of bench/hot-path.bench.mjs read it before and after their batches and print
// collections per call for our server and the bare one:
//   GROK_BENCH_GC_STATS=1 node bench/hot-path.bench.mjs --case "server CPU"
// `newSpaceBytes` is the young generation's current size: scavenges × half of it ≈ bytes allocated.
import { PerformanceObserver, constants } from "node:perf_hooks";
import v8 from "node:v8";
import { keepReport } from "./preload-report.mjs";

const totals = { scavenges: 0, scavengeMs: 0, markCompacts: 0, markCompactMs: 0, other: 0, otherMs: 0, newSpaceBytes: 0 };

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = entry.detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      totals.scavenges++;
      totals.scavengeMs += entry.duration;
    } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      totals.markCompacts++;
      totals.markCompactMs += entry.duration;
    } else {
      totals.other++;
      totals.otherMs += entry.duration;
    }
  }
}).observe({ entryTypes: ["gc"] });

keepReport("gcStats", () => {
  totals.newSpaceBytes = v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
  return totals;
});
