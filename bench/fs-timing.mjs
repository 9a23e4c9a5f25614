// Preload for a measured server (issue #18): times every synchronous `node:fs` call, every
// `fs.promises` call and `crypto.hash` in the process, by name, and writes the counts and total
// times at exit to `$GROK_FS_TIMING_DIR/fs-timing-<pid>.json` (default: the OS temp folder): the
// synchronous calls and the hash under `calls`, the promises apart under `promises`.
// `node scripts/fs-timing-top.mjs --calls N <file>` then lists them, per call when N is the number
// of calls the process answered; the file is also rewritten every 250 ms, so that the server-CPU
// rows of bench/hot-path.bench.mjs can read it before and after their batches and print each
// server's fs time per call. What it is for: a read's own work is a handful of syscalls and a hash,
// and what they cost inside a busy server (caches shared with the transport's code) is not what
// they cost in a loop; this measures them where the benchmark runs them, in both servers:
//   GROK_BENCH_FS_TIMING=1 node bench/hot-path.bench.mjs --case "server CPU per call: read_file of a 1-line file"
// A synchronous call's time is the thread's own (the syscall and its JavaScript wrapper); a
// promise's is its latency to settling (thread-pool queueing included), not CPU.
import crypto from "node:crypto";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { UNTIMED, keepReport } from "./preload-report.mjs";

/** name → { count, totalNs }: the thread's own time (synchronous calls and the hash). */
const calls = {};
/** name → { count, totalNs }: time to settling, not the thread's. */
const promises = {};

function timed(owner, name, totals, label = name) {
  const original = owner[name];
  const entry = (totals[label] = { count: 0, totalNs: 0 });
  const settle = (started) => {
    entry.count += 1;
    entry.totalNs += Number(process.hrtime.bigint() - started);
  };
  const wrapper = function (...args) {
    const started = process.hrtime.bigint();
    let result;
    try {
      result = original.apply(this, args);
    } catch (error) {
      settle(started);
      throw error;
    }
    if (result instanceof Promise) {
      return result.finally(() => settle(started));
    }
    settle(started);
    return result;
  };
  // The preloads' reports (this one's too) are written through the original: not the server's calls.
  wrapper[UNTIMED] = original;
  owner[name] = wrapper;
}

for (const name of Object.keys(fs)) if (name.endsWith("Sync") && typeof fs[name] === "function") timed(fs, name, calls);
for (const name of Object.keys(fs.promises)) if (typeof fs.promises[name] === "function") timed(fs.promises, name, promises);
if (typeof crypto.hash === "function") timed(crypto, "hash", calls, "crypto.hash");
// ES modules that import these by name (`import { openSync } from "node:fs"`) see the wrappers only after this.
syncBuiltinESMExports();

const used = (totals) => Object.fromEntries(Object.entries(totals).filter(([, entry]) => entry.count > 0));
keepReport("fsTiming", () => ({ pid: process.pid, argv: process.argv.slice(1, 3), calls: used(calls), promises: used(promises) }));
