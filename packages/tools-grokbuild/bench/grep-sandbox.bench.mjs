#!/usr/bin/env node
/**
 * What the search sandbox costs one small search (not a test: run it by hand or in CI): the same
 * GrokBuild:grep of a 20-file folder, alternately with GROK_TOOLS_SEARCH_SANDBOX=off and with the
 * default (a mount namespace with the root bind-mounted `nosymfollow`, where the kernel allows it).
 * Prints both medians and the difference; exits 1 only when the two answers differ.
 *
 * Usage (from the repository root, after a build):
 *   node packages/tools-grokbuild/bench/grep-sandbox.bench.mjs [--runs 60] [--smoke]
 * `--smoke` (what CI runs): 6 runs of each.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { detectSearchSandbox } from "@grok-tools/runtime/fs";
import { grokBuild } from "../dist/index.js";

const at = process.argv.indexOf("--runs");
const runs = at === -1 ? (process.argv.includes("--smoke") ? 6 : 60) : Number(process.argv[at + 1]);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "grep-sandbox-bench-")));
const workspace = path.join(root, "ws");
try {
  await mkdir(path.join(workspace, "src"), { recursive: true });
  for (let i = 0; i < 20; i++) await writeFile(path.join(workspace, "src", `f${i}.txt`), `line\nneedle ${i}\n`);
  const session = new Session({ registry: ToolRegistry.of([grokBuild]), workspace, stateDir: path.join(root, "state") });
  const finalized = await session.finalize({ tools: [{ id: "GrokBuild:grep" }] });
  if (!finalized.ok) throw new Error(finalized.message);
  const sandbox = await detectSearchSandbox();
  console.log(`search sandbox here: ${sandbox.mode} (${sandbox.detail})`);
  const times = { off: [], default: [] };
  const answers = { off: new Set(), default: new Set() };
  const saved = process.env.GROK_TOOLS_SEARCH_SANDBOX;
  for (let run = 0; run <= runs; run++) {
    // Alternate the order so neither side always runs second; run 0 is a warm-up.
    for (const side of run % 2 === 0 ? ["off", "default"] : ["default", "off"]) {
      if (side === "off") process.env.GROK_TOOLS_SEARCH_SANDBOX = "off";
      else if (saved === undefined) delete process.env.GROK_TOOLS_SEARCH_SANDBOX;
      else process.env.GROK_TOOLS_SEARCH_SANDBOX = saved;
      const started = performance.now();
      const result = await session.execute({ toolName: "grep", inputJson: JSON.stringify({ pattern: "needle", path: "src" }) });
      const elapsed = performance.now() - started;
      if (!result.ok) throw new Error(`grep failed (${side}): ${result.error.message}`);
      // ripgrep's order between files depends on its threads: compare the lines, not their order.
      answers[side].add(result.promptText.split("\n").sort().join("\n"));
      if (run > 0) times[side].push(elapsed);
    }
  }
  await session.close();
  console.log(
    `median wall time of one search: sandbox off ${median(times.off).toFixed(1)} ms, default ${median(times.default).toFixed(1)} ms (difference ${(median(times.default) - median(times.off)).toFixed(1)} ms, ${runs} runs each)`,
  );
  const same = answers.off.size === 1 && answers.default.size === 1 && [...answers.off][0] === [...answers.default][0];
  if (!same) console.error("FAIL: the answers with and without the sandbox differ");
  process.exitCode = same ? 0 : 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
