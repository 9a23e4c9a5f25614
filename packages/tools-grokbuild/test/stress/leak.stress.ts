/**
 * Stress run, not part of the unit suite: `npm run stress` (CI runs `npm run stress -- --smoke`), or alone:
 *   node --experimental-vm-modules ../../node_modules/jest/bin/jest.js --testMatch '<rootDir>/test/stress/*.stress.ts'
 * 100 timed-out commands with grandchildren leave zero processes; a command printing
 * 2 GiB keeps this process's memory under 150 MB and returns head and tail.
 */
import { jest } from "@jest/globals";
import { startHarness } from "../shell/helpers.js";
import { runLeakCheck } from "./leak-check.js";
import { SMOKE, check } from "../../../../scripts/suite-report.mjs";

jest.setTimeout(600_000);

/** `npm run stress -- --smoke` (CI) runs a tenth of the load. */
const COMMANDS = SMOKE ? 10 : 100;
const OUTPUT_BYTES = SMOKE ? 64 * 1024 * 1024 : 2147483648;

it(`leaves no process after ${COMMANDS} timed-out commands with grandchildren`, () =>
  check(
    "run_terminal_cmd in process: timed-out commands with setsid and pipe-holding grandchildren leave no process, commands",
    async () => {
      const report = await runLeakCheck({ commands: COMMANDS, concurrency: 10, timeoutMs: 300 });
      expect(report.leftover).toEqual([]);
      expect(report.allTimedOut).toBe(true);
      expect(report.slowestCallMs).toBeLessThan(300 + 3_000);
      return COMMANDS;
    },
    COMMANDS,
  ));

it(`streams ${OUTPUT_BYTES} bytes of output with bounded memory`, () =>
  check(
    "run_terminal_cmd in process: one command printing a flood keeps head and tail, RSS growth < 150 MB, MiB",
    floodKeepsMemoryBounded,
    OUTPUT_BYTES / 2 ** 20,
  ));

/** One command printing OUTPUT_BYTES: head and tail kept, this process's RSS growth bounded; returns MiB. */
async function floodKeepsMemoryBounded(): Promise<number> {
  const h = await startHarness([{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }]);
  try {
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const r = await h.call("run_terminal_cmd", {
      command: `head -c ${OUTPUT_BYTES} /dev/zero | tr '\\0' 'x'; echo; echo END`,
      description: "big",
      timeout: 290_000,
    });
    clearInterval(sampler);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    const out = JSON.parse(r.outputJson);
    expect(out.total_bytes).toBe(OUTPUT_BYTES + 5);
    expect(out.truncated).toBe(true);
    expect(out.output.startsWith("xxxx")).toBe(true);
    expect(out.output.endsWith("\nEND\n")).toBe(true);
    expect(peak - before).toBeLessThan(150 * 1024 * 1024);
    return OUTPUT_BYTES / 2 ** 20;
  } finally {
    await h.close();
  }
}
