// Summarises V8 CPU profiles (`node --cpu-prof`): the top functions by self time, each with its share
// of the sampled time, and optionally by file/package (`--by package`), or by inclusive time
// (`--inclusive`: the time of every sample with the function anywhere on its stack, counted once per
// sample, so a wrapper like `withSession` shows what runs under it), optionally only for functions
// whose key contains a text (`--match packages/`). `--under <text>` restricts the self-time view to
// samples whose stack holds a function matching the text (what a wrapper spends outside its callees).
// Used for the profile evidence in docs/benchmarks.md.
// Usage: node scripts/profile-top.mjs [--top 25] [--by function|package] [--inclusive] [--match text]
//        [--under text] [--until-ms N] file.cpuprofile...
import { readFileSync } from "node:fs";
import { frameLabel, optionsOf } from "./profile-args.mjs";

const args = process.argv.slice(2);
const { option, flag } = optionsOf(args);
const top = Number(option("--top", "25"));
const by = option("--by", "function");
const inclusive = flag("--inclusive");
const match = option("--match", undefined);
const under = option("--under", undefined);
// Only the first N ms of each profile (e.g. start-up up to the listening line), when given.
const untilMs = Number(option("--until-ms", "Infinity"));

/** The package (or node: internal) a script URL belongs to, for `--by package`. */
function packageOf(url) {
  if (!url) return "(vm/native)";
  if (url.startsWith("node:")) return "node:internal";
  const nm = url.lastIndexOf("node_modules/");
  if (nm !== -1) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const pkg = /packages\/([^/]+)\//.exec(url);
  return pkg ? `@grok-tools/${pkg[1]}` : url;
}

function keyOf(f) {
  return by === "package" ? packageOf(f.url) : frameLabel(f);
}

const totals = new Map();
let all = 0;
for (const file of args) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // timeDeltas[i] is the time before samples[i]: attribute it to that sample's node.
  const self = new Map();
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at / 1000 <= untilMs) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  /** The keys of a node's stack (itself and its callers), each once. */
  const stackKeys = (id) => {
    const keys = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) keys.add(keyOf(byId.get(n).callFrame));
    return keys;
  };
  for (const [id, us] of self) {
    const { callFrame: f } = byId.get(id);
    // Waiting is not work: shares are of the busy (non-idle) time.
    if (f.functionName === "(idle)") continue;
    all += us;
    if (inclusive) {
      for (const key of stackKeys(id)) totals.set(key, (totals.get(key) ?? 0) + us);
      continue;
    }
    if (under !== undefined && ![...stackKeys(id)].some((k) => k.includes(under))) continue;
    const key = keyOf(f);
    totals.set(key, (totals.get(key) ?? 0) + us);
  }
}
const rows = [...totals]
  .filter(([key]) => match === undefined || key.includes(match))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top);
console.log(`| ${inclusive ? "inclusive" : "self"} ms | share | ${by} |\n| ---: | ---: | --- |`);
for (const [key, us] of rows) console.log(`| ${(us / 1000).toFixed(1)} | ${((100 * us) / all).toFixed(1)}% | ${key.replace(/\|/g, "\\|")} |`);
console.log(`\n(${(all / 1000).toFixed(0)} ms busy sampled in ${args.length} profile(s))`);
