#!/usr/bin/env node
/**
 * Benchmark of GrokBuild:grep against ripgrep run directly (not a test: run it by hand or in CI).
 * Generates a tree of 50 000 files, runs the same search through the tool (a real Session) and
 * through `rg` with the same arguments, checks that both find the same matches, and prints the
 * ratio of the median wall times. Exits 1 when the answers differ or the ratio exceeds 1.3.
 *
 * Usage (from the repository root, after a build):
 *   npx tsc -b packages/tools-grokbuild/tsconfig.json
 *   node packages/tools-grokbuild/bench/grep.bench.mjs [--files 50000] [--runs 7] [--smoke]
 * `--smoke` (what CI runs): 2 000 files, 3 runs; correctness is checked, the ratio only printed.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { rgPath } from "@vscode/ripgrep";
import { ripgrepPath } from "@grok-tools/runtime/fs";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { grokBuild } from "../dist/index.js";
import { ripgrepArgs } from "../dist/grep/execute.js";
import { record } from "../../../bench/harness.mjs";

const MAX_RATIO = 1.3;
const FILES_PER_DIR = 100;
const NEEDLE = "grok_needle_marker";

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

const smoke = process.argv.includes("--smoke");
const fileCount = option("files", smoke ? 2_000 : 50_000);
const runs = option("runs", smoke ? 3 : 7);

/** Writes `count` small source files; every 500th file holds the needle on one line. */
async function generateTree(root, count) {
  const body = Array.from({ length: 20 }, (_, i) => `const value_${i} = compute(${i}); // filler line ${i}`).join("\n");
  const writes = [];
  for (let i = 0; i < count; i++) {
    const dir = path.join(root, `pkg_${Math.floor(i / FILES_PER_DIR)}`);
    if (i % FILES_PER_DIR === 0) await mkdir(dir, { recursive: true });
    const needle = i % 500 === 0 ? `\nexport const ${NEEDLE} = ${i};` : "";
    writes.push(writeFile(path.join(dir, `file_${i}.ts`), `${body}${needle}\n`));
    if (writes.length >= 512) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
  return Math.ceil(count / 500);
}

function runRgDirect(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(ripgrepPath(rgPath), args, { stdio: ["ignore", "pipe", "pipe"] });
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(chunks).toString("utf8") }));
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "grep-bench-")));
const workspace = path.join(root, "ws");
try {
  console.log(`generating ${fileCount} files under ${workspace} ...`);
  const expectedMatches = await generateTree(workspace, fileCount);
  const session = new Session({ registry: ToolRegistry.of([grokBuild]), workspace, stateDir: path.join(root, "state") });
  const finalized = await session.finalize({ tools: [{ id: "GrokBuild:grep" }] });
  if (!finalized.ok) throw new Error(finalized.message);
  // A head limit above the match count, so both sides walk the whole tree.
  const input = { pattern: NEEDLE, head_limit: 2000 };
  const args = ripgrepArgs(input, "content", `${workspace}/`);

  const toolTimes = [];
  const rgTimes = [];
  let toolMatches = -1;
  let rgMatches = -1;
  for (let run = 0; run <= runs; run++) {
    // Alternate the order so neither side always runs on a warmer cache; run 0 is a warm-up.
    const order = run % 2 === 0 ? ["tool", "rg"] : ["rg", "tool"];
    for (const side of order) {
      const started = performance.now();
      if (side === "tool") {
        const result = await session.execute({ toolName: "grep", inputJson: JSON.stringify(input) });
        if (!result.ok) throw new Error(`grep failed: ${result.error.message}`);
        toolMatches = JSON.parse(result.outputJson).match_count;
        if (run > 0) toolTimes.push(performance.now() - started);
      } else {
        const direct = await runRgDirect(args);
        rgMatches = direct.stdout.split("\n").filter((line) => /^\d+:/.test(line)).length;
        if (run > 0) rgTimes.push(performance.now() - started);
      }
    }
  }
  await session.close();
  const ratio = median(toolTimes) / median(rgTimes);
  console.log(`matches: tool ${toolMatches}, rg ${rgMatches}, expected ${expectedMatches}`);
  console.log(`median wall time: tool ${median(toolTimes).toFixed(1)} ms, rg ${median(rgTimes).toFixed(1)} ms`);
  console.log(`ratio tool/rg: ${ratio.toFixed(3)} (limit ${MAX_RATIO})`);
  // The row of `npm run bench`'s table (bench/harness.mjs).
  record({
    name: `grep over ${fileCount} files`,
    ours: median(toolTimes),
    bare: median(rgTimes),
    unit: "ms",
    target: { ratio: "<=", value: MAX_RATIO },
    note: "rg, same arguments",
  });
  const correct = toolMatches === expectedMatches && rgMatches === expectedMatches;
  if (!correct) console.error("FAIL: the tool and rg disagree with the expected match count");
  const fastEnough = smoke || ratio <= MAX_RATIO;
  if (!fastEnough) console.error(`FAIL: ratio ${ratio.toFixed(3)} exceeds ${MAX_RATIO}`);
  process.exitCode = correct && fastEnough ? 0 : 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
