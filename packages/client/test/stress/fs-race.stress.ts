/**
 * Directory swaps (issue #12 item 6), full form: 1 000 calls of each file tool (lists, searches,
 * reads, creates, edits, deletes, moves) through the real server while folders flip between a real
 * directory and a link outside; `--smoke` runs 100.
 *   npm run stress -- fs-race
 */
import { expect, it, jest } from "@jest/globals";
import { appendFileSync } from "node:fs";
import { FILE_RACE_TOOLS, RACE_TOOLS, formatRaceReport, raceProblems, runFsRace } from "../fs-race/harness.js";

/** One row of the stress table (scripts/run-suite.mjs collects GROK_SUITE_REPORT). */
function record(check: string, count: number, passed: boolean): void {
  if (process.env.GROK_SUITE_REPORT) appendFileSync(process.env.GROK_SUITE_REPORT, `${JSON.stringify({ check, count, passed })}\n`);
}

jest.setTimeout(1_800_000);

const CALLS = process.env.GROK_SUITE_SMOKE === "1" ? 100 : 1_000;

it(`never reads, lists or writes outside the workspace during ${CALLS} calls of each tool`, async () => {
  const report = await runFsRace({ callsPerTool: CALLS, concurrency: 16 });
  console.log(formatRaceReport(report));
  if (report.searchSandbox !== "nosymfollow-mount") {
    // One visible line; CI (.ci/run) has namespaces and sets the variable that makes this a failure.
    console.warn(`SKIPPED part: searches below a swapped folder (no mount namespace here: ${report.searchSandbox}); needs unshare --mount or user namespaces`);
    expect(process.env.GROK_TOOLS_REQUIRE_SEARCH_SANDBOX ?? "0").toBe("0");
  }
  const problems = raceProblems(report, RACE_TOOLS, CALLS);
  record("path safety: folder/link swap race, calls (all tools)", CALLS * RACE_TOOLS.length, problems.length === 0);
  expect(problems).toEqual([]);
});

it(`never reads or writes outside while a file flips between a file and a link outside, ${CALLS} calls of each tool`, async () => {
  const report = await runFsRace({ callsPerTool: CALLS, concurrency: 16, flip: "files" });
  console.log(formatRaceReport(report));
  const problems = raceProblems(report, FILE_RACE_TOOLS, CALLS);
  record("path safety: file/link flip race, calls (all tools)", CALLS * FILE_RACE_TOOLS.length, problems.length === 0);
  expect(problems).toEqual([]);
});
