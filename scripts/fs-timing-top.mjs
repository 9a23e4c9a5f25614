// Summarises the files bench/fs-timing.mjs writes: each timed fs or hash call by total time, with its
// count and its average. With `--calls N` (the calls the process answered) it also gives each one's
// count and time per answered call, and the sum of the synchronous ones: the thread's time those
// calls add to one answer (a promise's time is its latency, not the thread's). Used for
// docs/benchmarks.md. Usage: node scripts/fs-timing-top.mjs [--calls N] [--top 20] fs-timing-<pid>.json
import { readFileSync } from "node:fs";
import { optionsOf } from "./profile-args.mjs";

const args = process.argv.slice(2);
const { option } = optionsOf(args);
const top = Number(option("--top", "20"));
const answered = Number(option("--calls", "0"));

for (const file of args) {
  const { pid, argv, calls } = JSON.parse(readFileSync(file, "utf8"));
  const rows = Object.entries(calls).sort((a, b) => b[1].totalNs - a[1].totalNs);
  console.log(`pid ${pid}: ${argv.length > 0 ? argv.join(" ").slice(0, 100) : "node -e (an inline script)"}`);
  const perCall = answered > 0 ? " | per answered call | µs per answered call |\n| --- | ---: | ---: | ---: | ---: |" : " |\n| --- | ---: | ---: |";
  console.log(`| call | count | µs each${perCall}`);
  // Over every row, shown or not.
  const sumUs = rows.filter(([name]) => !name.startsWith("promises.")).reduce((sum, [, { totalNs }]) => sum + totalNs / Math.max(1, answered) / 1000, 0);
  for (const [name, { count, totalNs }] of rows.slice(0, top)) {
    const each = (totalNs / count / 1000).toFixed(1);
    if (answered > 0) {
      console.log(`| ${name} | ${count} | ${each} | ${(count / answered).toFixed(2)} | ${(totalNs / answered / 1000).toFixed(1)} |`);
    } else {
      console.log(`| ${name} | ${count} | ${each} |`);
    }
  }
  if (answered > 0) console.log(`\n(${sumUs.toFixed(1)} µs of synchronous calls per answered call over ${answered} calls)`);
  console.log("");
}
