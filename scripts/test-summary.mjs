#!/usr/bin/env node
// Adds up the Jest "Tests:" lines of a test log into one closing line, `tests: N passed, N failed`,
// so a reader of CI output sees the whole count at the end instead of per-package totals.
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
console.log(`(${suites} Jest runs)`);
// Skips are counted so a run that quietly skipped a suite (a missing Debian tool) shows it.
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
