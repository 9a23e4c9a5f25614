/**
 * Directory swaps (issue #12 item 6), full form: 1 000 calls of each file tool (lists, searches,
 * reads, creates, edits, deletes, moves) through the real server while folders flip between a real
 * directory and a link outside; `--smoke` runs 100.
 *   npm run stress -- fs-race
 */
import { expect, it, jest } from "@jest/globals";
import { RACE_TOOLS, formatRaceReport, raceProblems, runFsRace } from "../fs-race/harness.js";

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
  expect(raceProblems(report, RACE_TOOLS, CALLS)).toEqual([]);
});
