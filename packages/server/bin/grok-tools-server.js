#!/usr/bin/env node
// Thin launcher so the command exists before the first build; the code is in dist/.
import { existsSync } from "node:fs";
import { setFlagsFromString } from "node:v8";

// Issue #18, idle memory: loading the server's ~1,400 modules makes V8 double its young
// generation up to its maximum (2 × 16 MiB), and it never gives those pages back, so an idle
// server kept about 10 MB it used only while starting. The young generation does not grow while
// the modules load (what survives start-up is long-lived and goes to the old generation anyway)
// and grows again as usual once the server serves, so calls allocate as fast as before. Left alone
// when the user set the flag (NODE_OPTIONS or node's own arguments).
const userSet = (name) => [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((arg) => arg.includes(name) || arg.includes(name.replaceAll("-", "_")));
const GROWTH_FLAG = "--semi-space-growth-factor";
const userSetGrowth = userSet("semi-space-growth-factor");
if (!userSetGrowth) setFlagsFromString(`${GROWTH_FLAG}=1`);

// Issue #18, streaming: after each full collection V8 sets the old generation's next limit from how
// fast that collection was, which for this server's small old generation (~12 MB live) left about
// 10 MB of room, less than the young generation holds (16 MB semi-spaces): V8 then starts marking
// again as soon as anything is promoted. Streaming 64 MiB of live output promotes a steady trickle,
// and ran 8 futile mark-compacts per stream, about half the server's CPU in that case
// (docs/benchmarks.md, thirteenth pass). Growing the limit 4× per collection keeps the room above
// the young generation. Set once start-up is over (below), so start-up and the idle heap are
// collected as before; left alone when the user set it.
const HEAP_GROWING_FLAG = "--heap-growing-percent";
const userSetHeapGrowing = userSet("heap-growing-percent");

const restoreGrowth = () => {
  // V8's default factor.
  if (!userSetGrowth) setFlagsFromString(`${GROWTH_FLAG}=2`);
  if (!userSetHeapGrowing) setFlagsFromString(`${HEAP_GROWING_FLAG}=300`);
};

// Issue #18, start-up: the build bundles the command into one file (scripts/bundle-server.mjs), which
// loads in about half the time of its ~1,200 modules. A build that has not made it (tsc alone) still
// runs, from the modules.
const bundle = new URL("../dist/bundle/cli.mjs", import.meta.url);
const { main, StartupError } = await import(existsSync(bundle) ? bundle.href : "../dist/cli.js");

main(process.argv).then(restoreGrowth, (error) => {
  restoreGrowth();
  if (error instanceof StartupError) {
    if (error.message) process.stderr.write(`grok-tools-server: error: ${error.message}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(`grok-tools-server: ${error?.stack ?? error}\n`);
  process.exit(1);
});
