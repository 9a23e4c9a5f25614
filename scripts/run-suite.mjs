#!/usr/bin/env node
// Runs every bench or stress script of every package, one after the other in its own Node process
// so they do not disturb each other's timings: `packages/*/<suite>/*.<suite>.mjs` as plain scripts,
// and `packages/*/{<suite>,test/<suite>}/*.<suite>.ts` through the package's Jest setup.
// The root test projects (`test/<project>/<suite>/*.<suite>.ts`, e.g. the reliability suite) run
// the same way, from their own folder. `--smoke` (what CI runs) is passed through, and
// GROK_SUITE_SMOKE=1 is set: a few iterations only. Scripts that record checks (one JSON line each
// in the file named by GROK_SUITE_REPORT: check, count, passed) get one row per check in the table
// printed at the end; the others one row per script, with count "-" (every stress script records
// its checks through scripts/suite-report.mjs). Benchmark rows (a `bench` field: case, ours,
// bare, ratio, target, pass; see bench/harness.mjs) are also printed as one Markdown table and
// written to bench-results.json at the root. The root's own `bench/` folder holds the
// cross-package cases (the server measured from outside).
import { readdirSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
const projectDirs = [
  root,
  ...readdirSync(path.join(root, "packages")).map((pkg) => path.join(root, "packages", pkg)),
  ...(existsSync(path.join(root, "test"))
    ? readdirSync(path.join(root, "test"))
        .map((dir) => path.join(root, "test", dir))
        .filter((dir) => existsSync(path.join(dir, "jest.config.js")))
    : []),
];
const projectOf = new Map();
const files = projectDirs
  .flatMap((projectDir) =>
    [path.join(projectDir, suite), path.join(projectDir, "test", suite)].flatMap((dir) =>
      existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => f.endsWith(`.${suite}.mjs`) || f.endsWith(`.${suite}.ts`))
            .map((f) => {
              projectOf.set(path.join(dir, f), projectDir);
              return path.join(dir, f);
            })
        : [],
    ),
  )
  .filter((file) => !filter || file.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`no ${suite} scripts found`);
  process.exit(1);
}
const benchRows = [];
const reportDir = mkdtempSync(path.join(tmpdir(), `grok-${suite}-`));
const rows = [];
let failed = 0;
for (const [index, file] of files.entries()) {
  console.log(`\n== ${path.relative(root, file)}`);
  const report = path.join(reportDir, `${index}.jsonl`);
  const env = { ...process.env, GROK_SUITE_REPORT: report, ...(smoke ? { GROK_SUITE_SMOKE: "1", BENCH_ITERATIONS: "5" } : {}) };
  const packageDir = projectOf.get(file);
  const command = file.endsWith(".ts")
    ? ["--expose-gc", "--experimental-vm-modules", path.join(root, "node_modules/jest/bin/jest.js"), "--runInBand", "--testMatch", file]
    : ["--expose-gc", file, ...args.filter((a) => a.startsWith("--"))];
  const result = spawnSync(process.execPath, command, { stdio: "inherit", cwd: file.endsWith(".ts") ? packageDir : root, env });
  const checks = existsSync(report)
    ? readFileSync(report, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  const name = path.relative(root, file);
  for (const c of checks) if (c.bench) benchRows.push({ ...c.bench, file: name });
  if (checks.length === 0) rows.push({ check: name, count: "-", result: result.status === 0 ? "pass" : "FAIL" });
  for (const c of checks) rows.push({ check: c.check, count: String(c.count), result: c.passed ? "pass" : `FAIL${c.note ? `: ${c.note}` : ""}` });
  // A script that exits non-zero fails even when every check it recorded passed (a crash after them).
  if (checks.length > 0 && result.status !== 0 && checks.every((c) => c.passed)) rows.push({ check: `${name} (exit)`, count: "-", result: "FAIL" });
  if (result.status !== 0) failed++;
}
rmSync(reportDir, { recursive: true, force: true });
const width = (key, title) => Math.max(title.length, ...rows.map((r) => r[key].length));
const [w1, w2] = [width("check", "check"), width("count", "count")];
console.log(`\n${suite}${smoke ? " (smoke)" : ""}:`);
console.log(`${"check".padEnd(w1)}  ${"count".padStart(w2)}  result`);
console.log(`${"-".repeat(w1)}  ${"-".repeat(w2)}  ------`);
for (const r of rows) console.log(`${r.check.padEnd(w1)}  ${r.count.padStart(w2)}  ${r.result}`);
if (benchRows.length > 0) {
  const cell = (v) => String(v).replaceAll("|", "\\|");
  console.log(`\n| case | ours | bare | ratio | target | pass |\n| --- | --- | --- | --- | --- | --- |`);
  for (const r of benchRows) {
    // A row judged on our number alone (RSS per extra session) has no bare side: "—", not "null".
    const shown = (v, suffix) => (v === null || v === undefined || Number.isNaN(v) ? "—" : `${v}${suffix}`);
    const bare = `${shown(r.bare, ` ${r.unit}`)}${r.note ? ` (${r.note})` : ""}`;
    console.log(`| ${[r.case, `${r.ours} ${r.unit}`, bare, shown(r.ratio, "×"), r.target, r.pass].map(cell).join(" | ")} |`);
  }
  writeFileSync(path.join(root, "bench-results.json"), `${JSON.stringify(benchRows, null, 2)}\n`);
  console.log(`\n(${benchRows.length} rows written to bench-results.json)`);
}
// Scripts and checks both: a script holds one or more checks (a row each), so "passed" alone did not say which.
const failedRows = rows.filter((r) => r.result !== "pass").length;
console.log(`\n${suite}: ${files.length - failed} of ${files.length} scripts passed; ${rows.length - failedRows} of ${rows.length} rows (checks) passed`);
process.exit(failed === 0 ? 0 : 1);
