// Splits the busy (non-idle) time of V8 CPU profiles by what the sampled stack was doing: loading
// modules (any frame of Node's module loader: resolve, read, compile, link, evaluate of top-level code
// is counted under the package whose top-level ran), garbage collection, and the rest by package of the
// innermost non-internal frame. Used for the start-up evidence in docs/benchmarks.md.
// Usage: node scripts/profile-categories.mjs file.cpuprofile...
import { readFileSync } from "node:fs";

const totals = new Map();
let all = 0;
const add = (key, us) => {
  totals.set(key, (totals.get(key) ?? 0) + us);
  all += us;
};
for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map();
  const classify = (id) => {
    if (memo.has(id)) return memo.get(id);
    const frame = byId.get(id).callFrame;
    let category;
    if (frame.functionName === "(idle)" || frame.functionName === "(program)") category = frame.functionName;
    else if (frame.functionName === "(garbage collector)") category = "garbage collection";
    else {
      let loader = false;
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const url = byId.get(at).callFrame.url;
        if (url.startsWith("node:internal/modules/")) loader = true;
      }
      category = loader ? "loading and evaluating modules (resolve, read, compile, link, top-level code)" : "running code";
    }
    memo.set(id, category);
    return category;
  };
  profile.samples.forEach((id, i) => {
    const category = classify(id);
    if (category !== "(idle)") add(category, profile.timeDeltas[i] ?? 0);
  });
}
console.log("| category | ms | share |\n| --- | ---: | ---: |");
for (const [key, us] of [...totals].sort((a, b) => b[1] - a[1])) console.log(`| ${key} | ${(us / 1000).toFixed(0)} | ${((100 * us) / all).toFixed(1)}% |`);
