// Preload for a profiled server (issue #18): V8's sampling heap profiler over the whole life of the
// process, counting also the objects the garbage collector has freed since (a call's garbage is what
// a server allocates most), written at exit to `$GROK_ALLOC_SAMPLE_DIR/alloc-<pid>.heapprofile`
// (default: the OS temp folder). `node scripts/alloc-top.mjs --calls N <file>` then lists the
// allocation sites, per call when N is the number of calls the process answered. To compare our
// server with the bare one on the 1-line read (5 runs of 19 200 calls each, plus a few set-up calls):
//   GROK_BENCH_NODE_ARGS="--import ./bench/alloc-sample.mjs" GROK_BENCH_BARE_NODE_ARGS="--import ./bench/alloc-sample.mjs" \
//     node bench/hot-path.bench.mjs --case "server CPU per call: read_file of a 1-line file, 64"
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const file = path.join(process.env.GROK_ALLOC_SAMPLE_DIR ?? tmpdir(), `alloc-${process.pid}.heapprofile`);
const session = new Session();
session.connect();
// One sample per ~8 KB allocated on average: a call allocates some tens of KB, so each call is seen.
session.post("HeapProfiler.startSampling", { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
// A session on the process's own thread answers synchronously, so the profile is written before exit.
process.on("exit", () => {
  session.post("HeapProfiler.stopSampling", (error, result) => {
    if (!error) writeFileSync(file, JSON.stringify(result.profile));
  });
});
