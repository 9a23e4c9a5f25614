#!/usr/bin/env node
// Adds up the Jest "Tests:" lines of a test log into one closing line, `tests: N passed, N failed`,
// so a reader of CI output sees the whole count at the end instead of per-package totals. Failed
// tests are named there too, with the first lines of each failure: a CI report often keeps only the
// end of the log, and Nx's "failed tasks" list names the package, not the test.
import { readFileSync } from "node:fs";

// eslint-disable-next-line no-control-regex -- the pattern is the ANSI colour escape it removes
const log = readFileSync(process.argv[2] ?? 0, "utf8").replace(/\x1b\[[0-9;]*m/g, "");
let passed = 0;
let failed = 0;
let skipped = 0;
let suites = 0;
for (const match of log.matchAll(/^(?:\S+:\s+)?Tests:\s+(.*)$/gm)) {
  suites++;
  passed += Number(/(\d+) passed/.exec(match[1])?.[1] ?? 0);
  failed += Number(/(\d+) failed/.exec(match[1])?.[1] ?? 0);
  skipped += Number(/(\d+) skipped/.exec(match[1])?.[1] ?? 0);
}

/** Lines of each failure Jest printed (`● Suite › test` and what follows), at most this many each. */
const FAILURE_LINES = 25;
const lines = log.split("\n");
const failures = [];
for (let i = 0; i < lines.length; i++) {
  // Nx prefixes each line with `project: `; Jest's failure headers are `● describe › test`
  // (`● Console` only introduces console output).
  const header = /^(?:(\S+):\s+)?\s*● (?!Console\s*$)(.*\S)\s*$/.exec(lines[i]);
  if (!header) continue;
  const project = header[1];
  const block = [`${project ? `${project}: ` : ""}● ${header[2]}`];
  for (let j = i + 1; j < lines.length && block.length < FAILURE_LINES; j++) {
    // Other projects' output interleaves with this one's: only the failing project's lines belong to the block.
    if (project && !lines[j].startsWith(`${project}:`)) continue;
    const line = project ? lines[j].slice(project.length + 1) : lines[j];
    if (/^\s*(● |PASS |FAIL )/.test(line)) break;
    if (line.trim() !== "") block.push(`    ${line.trim()}`);
  }
  failures.push({ name: block[0], text: block.join("\n") });
}
// Jest prints each failure twice (as it happens and in the closing summary), and Nx may cut the second
// copy's long lines: keep the first block of each test, matching names on their first 60 characters.
const seen = new Set();
const unique = failures.filter(({ name }) => !seen.has(name.slice(0, 60)) && seen.add(name.slice(0, 60))).map(({ text }) => text);
/** At most this many failures are shown: a broken build fails hundreds, and the first ones say why. */
const SHOWN_FAILURES = 20;
if (unique.length > 0) {
  console.log(`failed tests (${unique.length}${unique.length > SHOWN_FAILURES ? `, the first ${SHOWN_FAILURES} shown` : ""}):`);
  for (const failure of unique.slice(0, SHOWN_FAILURES)) console.log(failure);
}
console.log(`(${suites} Jest runs)`);
// Skips are counted so a run that quietly skipped a suite (a missing Debian tool) shows it.
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
