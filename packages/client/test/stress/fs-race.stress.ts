/**
 * Directory swaps (issue #12 item 6), full form: 1 000 calls of each file tool of the GrokBuild,
 * Codex, OpenCode and hashline namespaces (lists, searches, reads, creates, edits, deletes, moves)
 * through the real server while folders flip between a real directory and a link outside, and
 * while files flip between a regular file and a link outside (#19); `--smoke` runs 100.
 *   npm run stress -- fs-race
 */
import { expect, it, jest } from "@jest/globals";
import { FILE_RACE_TOOLS, RACE_TOOLS, formatRaceReport, raceProblems, runFsRace } from "../fs-race/harness.js";
import { SMOKE, check } from "../../../../scripts/suite-report.mjs";

jest.setTimeout(1_800_000);

const CALLS = SMOKE ? 100 : 1_000;

/** Fails with the problems found (all of them are in the report printed above). */
function expectNone(problems: string[]): void {
  if (problems.length > 0) throw new Error(`${problems.length} problem(s): ${problems.slice(0, 3).join("; ")}`);
}

it(`never reads, lists or writes outside the workspace during ${CALLS} calls of each tool`, () =>
  check(
    "path safety: folder/link swap race, calls (all tools)",
    async () => {
      const report = await runFsRace({ callsPerTool: CALLS, concurrency: 16 });
      console.log(formatRaceReport(report));
      if (report.searchSandbox !== "nosymfollow-mount") {
        // One visible line; CI (.ci/run) has namespaces and sets the variable that makes this a failure.
        console.warn(
          `SKIPPED part: searches below a swapped folder (no mount namespace here: ${report.searchSandbox}); needs unshare --mount or user namespaces`,
        );
        expect(process.env.GROK_TOOLS_REQUIRE_SEARCH_SANDBOX ?? "0").toBe("0");
      }
      expectNone(raceProblems(report, RACE_TOOLS, CALLS));
      return CALLS * RACE_TOOLS.length;
    },
    CALLS * RACE_TOOLS.length,
  ));

it(`never reads or writes outside while a file flips between a file and a link outside, ${CALLS} calls of each tool`, () =>
  check(
    "path safety: file/link flip race, calls (all tools)",
    async () => {
      const report = await runFsRace({ callsPerTool: CALLS, concurrency: 16, flip: "files" });
      console.log(formatRaceReport(report));
      expectNone(raceProblems(report, FILE_RACE_TOOLS, CALLS));
      return CALLS * FILE_RACE_TOOLS.length;
    },
    CALLS * FILE_RACE_TOOLS.length,
  ));
