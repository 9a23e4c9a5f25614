/**
 * Leak check: many timed-out commands, each with a setsid grandchild and a grandchild
 * holding the output pipe, leave zero processes behind, and each call returns on time.
 * The 100-command version is test/stress/leak.stress.ts.
 */
import { jest } from "@jest/globals";
import { runLeakCheck } from "../stress/leak-check.js";

jest.setTimeout(60_000);

it("leaves no process after 10 timed-out commands with grandchildren", async () => {
  const report = await runLeakCheck({ commands: 10, concurrency: 5, timeoutMs: 300 });
  expect(report.leftover).toEqual([]);
  expect(report.allTimedOut).toBe(true);
  expect(report.slowestCallMs).toBeLessThan(300 + 3_000);
});
