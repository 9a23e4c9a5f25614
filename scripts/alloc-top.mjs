// Summarises allocation profiles written by bench/alloc-sample.mjs (V8's sampling heap profiler with
// the collected objects counted): the allocation sites by bytes, each with its share, the site being
// the allocating function and, with `--depth N`, the N-1 functions that called it. With `--calls N`
// (the calls the process answered) the bytes are given per call. Used for docs/benchmarks.md.
// Usage: node scripts/alloc-top.mjs [--top 30] [--depth 1] [--calls N] [--match text] file.heapprofile
import { readFileSync } from "node:fs";
import { frameLabel, optionsOf } from "./profile-args.mjs";

const args = process.argv.slice(2);
const { option } = optionsOf(args);
const top = Number(option("--top", "30"));
const depth = Number(option("--depth", "1"));
const calls = Number(option("--calls", "0"));
const match = option("--match", undefined);

const sites = new Map();
let total = 0;
for (const file of args) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  // selfSize is the bytes sampled at the node, already scaled to an estimate of all its allocations.
  const walk = (node, callers) => {
    const stack = [frameLabel(node.callFrame), ...callers];
    if (node.selfSize > 0) {
      const key = stack.slice(0, depth).join(" < ");
      sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children ?? []) walk(child, stack);
  };
  walk(profile.head, []);
}
const unit = calls > 0 ? "B/call" : "B";
const scaled = (bytes) => (calls > 0 ? bytes / calls : bytes);
console.log(`| ${unit} | share | site |\n| ---: | ---: | --- |`);
const rows = [...sites].filter(([key]) => !match || key.includes(match)).sort((a, b) => b[1] - a[1]);
for (const [key, bytes] of rows.slice(0, top)) console.log(`| ${scaled(bytes).toFixed(0)} | ${((100 * bytes) / total).toFixed(1)}% | ${key} |`);
console.log(`\n(${scaled(total).toFixed(0)} ${unit} allocated in all${calls > 0 ? ` over ${calls} calls` : ""}, from ${args.length} profile(s))`);
