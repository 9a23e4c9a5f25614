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

// Issue #18, streaming: once started, the command keeps room for the old generation above what
// survived each full collection (src/heap-growth.ts: V8's own limit left a small heap less room than
// the young generation holds, and streaming live output then ran futile mark-compacts). Left alone
// when the user set --heap-growing-percent.
const userSetHeapGrowing = userSet("heap-growing-percent");

const restoreGrowth = () => {
  // V8's default factor.
  if (!userSetGrowth) setFlagsFromString(`${GROWTH_FLAG}=2`);
};

// Issue #18, start-up: the build bundles the command into one file (scripts/bundle-server.mjs), which
// loads in about half the time of its ~1,200 modules. A build that has not made it (tsc alone) still
// runs, from the modules.
const bundle = new URL("../dist/bundle/cli.mjs", import.meta.url);
const { main, StartupError, keepOldGenerationRoom } = await import(existsSync(bundle) ? bundle.href : "../dist/cli.js");

const started = () => {
  restoreGrowth();
  if (!userSetHeapGrowing) keepOldGenerationRoom();
};

main(process.argv).then(started, (error) => {
  restoreGrowth();
  if (error instanceof StartupError) {
    if (error.message) process.stderr.write(`grok-tools-server: error: ${error.message}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(`grok-tools-server: ${error?.stack ?? error}\n`);
  process.exit(1);
});
