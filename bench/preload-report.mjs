// The measuring preloads of the bench (issue #18) and the report file each keeps: loaded into a
// server with its flag set to 1 (bench/server-fixture.mjs), a preload rewrites
// `$<dirVariable>/<prefix>-<pid>.json` (default folder: the OS temp folder) every
// REPORT_PERIOD_MS and at exit, and the bench reads it before and after a batch. One table, so the
// flag, the script and the file a preload writes are named once. No side effects: the bench
// process imports it too.
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** name → { flag, script (beside this file), dirVariable, prefix } */
export const PRELOADS = {
  gcStats: { flag: "GROK_BENCH_GC_STATS", script: "gc-stats.mjs", dirVariable: "GROK_GC_STATS_DIR", prefix: "gc-stats" },
  fsTiming: { flag: "GROK_BENCH_FS_TIMING", script: "fs-timing.mjs", dirVariable: "GROK_FS_TIMING_DIR", prefix: "fs-timing" },
  phases: { flag: "GROK_BENCH_PHASES", script: "phase-timing.mjs", dirVariable: "GROK_PHASES_DIR", prefix: "phases" },
};

/** How often a preload rewrites its report. */
export const REPORT_PERIOD_MS = 250;

/**
 * The original of a function bench/fs-timing.mjs wrapped, under this key: a preload's own writes
 * go through it, since they are not the server's calls.
 */
export const UNTIMED = Symbol.for("grok-bench.untimed");

/** The report file of preload `name` in process `pid`. */
export function reportFile(name, pid) {
  const { dirVariable, prefix } = PRELOADS[name];
  return path.join(process.env[dirVariable] ?? tmpdir(), `${prefix}-${pid}.json`);
}

/**
 * Keeps preload `name`'s report of this process: `snapshot()` as JSON every REPORT_PERIOD_MS and
 * at exit; a snapshot of undefined writes nothing (nothing changed).
 */
export function keepReport(name, snapshot) {
  const file = reportFile(name, process.pid);
  const write = () => {
    const report = snapshot();
    if (report === undefined) return;
    // Looked up at each write: bench/fs-timing.mjs may be loaded after this preload.
    const writeFileSync = fs.writeFileSync[UNTIMED] ?? fs.writeFileSync;
    writeFileSync(file, JSON.stringify(report));
  };
  setInterval(write, REPORT_PERIOD_MS).unref();
  process.on("exit", write);
}
