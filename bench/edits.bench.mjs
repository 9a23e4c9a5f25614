// Benchmark case of a large edit (issue #18): Codex:apply_patch of 100 hunks over 10 files through
// the real server, against the bare operation measured in the same run: an empty gRPC call plus
// writing the 10 final files. Alternated runs, medians (bench/harness.mjs); the files are reset
// before every run, outside the timing.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { compareRuns } from "./harness.mjs";
import { startServer } from "./server-fixture.mjs";

const FILES = 10;
const HUNKS_PER_FILE = 10;
const LINES = 400;

const original = Array.from({ length: LINES }, (_, i) => `const value${i} = compute(${i});`);
const changed = new Set(Array.from({ length: HUNKS_PER_FILE }, (_, h) => h * (LINES / HUNKS_PER_FILE) + 20));
const finalText = original.map((line, i) => (changed.has(i) ? `const value${i} = computeFaster(${i});` : line)).join("\n") + "\n";
const originalText = original.join("\n") + "\n";

function patchText() {
  const parts = ["*** Begin Patch"];
  for (let f = 0; f < FILES; f++) {
    parts.push(`*** Update File: src/file${f}.ts`);
    for (const i of [...changed].sort((a, b) => a - b)) {
      parts.push("@@", ` ${original[i - 1]}`, `-${original[i]}`, `+const value${i} = computeFaster(${i});`, ` ${original[i + 1]}`);
    }
  }
  parts.push("*** End Patch");
  return parts.join("\n") + "\n";
}

const server = await startServer({ tools: [{ id: "Codex:apply_patch" }] });
try {
  const files = Array.from({ length: FILES }, (_, f) => path.join(server.workspace, "src", `file${f}.ts`));
  await (await import("node:fs/promises")).mkdir(path.join(server.workspace, "src"));
  const reset = () => Promise.all(files.map((file) => writeFile(file, originalText)));
  const apply = server.toolCall("apply_patch", { patch: patchText() });
  const timed = async (fn) => {
    await reset();
    const started = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  // Sanity: the patch really applies and gives the final text.
  await timed(apply);
  const { readFile } = await import("node:fs/promises");
  if ((await readFile(files[9], "utf8")) !== finalText) throw new Error("apply_patch did not produce the final text");
  await compareRuns({
    name: "apply_patch of 100 hunks over 10 files, median",
    ours: () => timed(apply),
    bare: () =>
      timed(async () => {
        await server.emptyCall();
        await Promise.all(files.map((file) => writeFile(file, finalText)));
      }),
    unit: "ms",
    target: { ratio: "<=", value: 2 },
    runs: process.env.GROK_SUITE_SMOKE === "1" ? 1 : 21,
    note: "empty call + writing the 10 final files",
  });
} finally {
  await server.close();
}
