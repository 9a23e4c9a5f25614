/**
 * Benchmark: run_terminal_cmd of `true` through a session (no gRPC) vs spawning `bash -c true`
 * directly, interleaved in the same run; prints both medians and their ratio. The judged
 * benchmark, with the gRPC round trip, is packages/server/bench/run-terminal-cmd.bench.mjs.
 * Run with `npm run bench`, or alone:
 *   node --experimental-vm-modules ../../node_modules/jest/bin/jest.js --testMatch '<rootDir>/bench/*.bench.ts'
 */
import { spawn } from "node:child_process";
import { jest } from "@jest/globals";
import { startHarness } from "../test/shell/helpers.js";

jest.setTimeout(300_000);

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 50);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function spawnTrue(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", "true"], { stdio: ["ignore", "pipe", "pipe"] });
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}

it("compares run_terminal_cmd(true) with bash -c true", async () => {
  const h = await startHarness([{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }]);
  try {
    for (let i = 0; i < 5; i++) {
      await spawnTrue();
      await h.call("run_terminal_cmd", { command: "true", description: "bench" });
    }
    const direct: number[] = [];
    const tool: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      let t = performance.now();
      await spawnTrue();
      direct.push(performance.now() - t);
      t = performance.now();
      const r = await h.call("run_terminal_cmd", { command: "true", description: "bench" });
      tool.push(performance.now() - t);
      expect(r.ok).toBe(true);
    }
    const d = median(direct);
    const m = median(tool);
    process.stdout.write(`run_terminal_cmd(true) median ${m.toFixed(2)} ms; bash -c true median ${d.toFixed(2)} ms; ratio ${(m / d).toFixed(2)}\n`);
  } finally {
    await h.close();
  }
});
