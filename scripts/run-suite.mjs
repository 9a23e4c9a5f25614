#!/usr/bin/env node
// Runs every bench or stress script of every package, one after the other in its own Node process
// so they do not disturb each other's timings: `packages/*/<suite>/*.<suite>.mjs` as plain scripts,
// and `packages/*/{<suite>,test/<suite>}/*.<suite>.ts` through the package's Jest setup.
// `--smoke` (what CI runs) is passed through, and GROK_SUITE_SMOKE=1 is set: a few iterations only.
import { readdirSync, existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [suite, ...args] = process.argv.slice(2);
if (suite !== "bench" && suite !== "stress") {
  console.error("usage: run-suite.mjs bench|stress [--smoke] [filter]");
  process.exit(2);
}
const filter = args.find((a) => !a.startsWith("--"));
const smoke = args.includes("--smoke");
const files = readdirSync(path.join(root, "packages"))
  .flatMap((pkg) =>
    [path.join(root, "packages", pkg, suite), path.join(root, "packages", pkg, "test", suite)].flatMap((dir) =>
      existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => f.endsWith(`.${suite}.mjs`) || f.endsWith(`.${suite}.ts`))
            .map((f) => path.join(dir, f))
        : [],
    ),
  )
  .filter((file) => !filter || file.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`no ${suite} scripts found`);
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  console.log(`\n== ${path.relative(root, file)}`);
  const env = { ...process.env, ...(smoke ? { GROK_SUITE_SMOKE: "1", BENCH_ITERATIONS: "5" } : {}) };
  const packageDir = path.join(root, "packages", path.relative(path.join(root, "packages"), file).split(path.sep)[0]);
  const command = file.endsWith(".ts")
    ? ["--expose-gc", "--experimental-vm-modules", path.join(root, "node_modules/jest/bin/jest.js"), "--runInBand", "--testMatch", file]
    : ["--expose-gc", file, ...args.filter((a) => a.startsWith("--"))];
  const result = spawnSync(process.execPath, command, { stdio: "inherit", cwd: file.endsWith(".ts") ? packageDir : root, env });
  if (result.status !== 0) failed++;
}
console.log(`\n${suite}: ${files.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
