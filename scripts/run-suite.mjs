#!/usr/bin/env node
// Runs every `packages/*/<suite>/*.<suite>.mjs` file (suite = bench or stress) in its own Node
// process, one after the other so they do not disturb each other's timings. `--smoke` is passed
// through: each script then does a few iterations only (what CI runs).
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
const files = readdirSync(path.join(root, "packages"))
  .flatMap((pkg) => {
    const dir = path.join(root, "packages", pkg, suite);
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(`.${suite}.mjs`)).map((f) => path.join(dir, f)) : [];
  })
  .filter((file) => !filter || file.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`no ${suite} scripts found`);
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  console.log(`\n== ${path.relative(root, file)}`);
  const result = spawnSync(process.execPath, ["--expose-gc", file, ...args.filter((a) => a.startsWith("--"))], { stdio: "inherit", cwd: root });
  if (result.status !== 0) failed++;
}
console.log(`\n${suite}: ${files.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
