// Summarises the files bench/fs-timing.mjs writes: the synchronous fs calls and the hash, then the
// promises, each by total time with its count and its average. With `--calls N` (the calls the
// process answered) it also gives each one's count and time per answered call, and the sum of the
// synchronous ones: the thread's time those calls add to one answer (a promise's time is its
// latency, not the thread's). Used for
// docs/benchmarks.md. Usage: node scripts/fs-timing-top.mjs [--calls N] [--top 20] fs-timing-<pid>.json
import { readFileSync } from "node:fs";
import { optionsOf } from "./profile-args.mjs";

const args = process.argv.slice(2);
const { option } = optionsOf(args);
const top = Number(option("--top", "20"));
const answered = Number(option("--calls", "0"));

/** One table of timed calls (`{ name: { count, totalNs } }`), per answered call with `--calls`. */
function printTable(title, totals) {
  const rows = Object.entries(totals).sort((a, b) => b[1].totalNs - a[1].totalNs);
  if (rows.length === 0) return;
  console.log(
    `${title}\n| call | count | µs each${answered > 0 ? " | per answered call | µs per answered call |\n| --- | ---: | ---: | ---: | ---: |" : " |\n| --- | ---: | ---: |"}`,
  );
  for (const [name, { count, totalNs }] of rows.slice(0, top)) {
    const each = (totalNs / count / 1000).toFixed(1);
    console.log(
      answered > 0
        ? `| ${name} | ${count} | ${each} | ${(count / answered).toFixed(2)} | ${(totalNs / answered / 1000).toFixed(1)} |`
        : `| ${name} | ${count} | ${each} |`,
    );
  }
  console.log("");
}

for (const file of args) {
  const { pid, argv, calls, promises = {} } = JSON.parse(readFileSync(file, "utf8"));
  console.log(`pid ${pid}: ${argv.length > 0 ? argv.join(" ").slice(0, 100) : "node -e (an inline script)"}\n`);
  printTable("Synchronous calls and hashing (the thread's own time):", calls);
  printTable("Promises (time to settling, not the thread's):", promises);
  if (answered > 0) {
    // Over every synchronous row, shown or not.
    const sumUs = Object.values(calls).reduce((sum, { totalNs }) => sum + totalNs / answered / 1000, 0);
    console.log(`(${sumUs.toFixed(1)} µs of synchronous calls per answered call over ${answered} calls)\n`);
  }
}
