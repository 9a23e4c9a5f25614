// Directory swaps (issue #12 item 6), short form: 100 calls of each file tool of the GrokBuild, Codex,
// OpenCode and hashline namespaces (lists, searches, reads, creates, edits, deletes, moves) through the
// real server while folders flip between a real directory and a link outside. The 1 000-call form is in stress/.
import { expect, it, jest } from "@jest/globals";
import { FILE_RACE_TOOLS, RACE_TOOLS, SEARCH_RACE_TOOLS, formatRaceReport, raceProblems, runFsRace } from "./fs-race/harness.js";

jest.setTimeout(300_000);

const CALLS = 100;

it("never reads, lists or writes outside the workspace while folders are swapped for links", async () => {
  const report = await runFsRace({ callsPerTool: CALLS, concurrency: 8 });
  console.log(formatRaceReport(report));
  if (report.searchSandbox !== "nosymfollow-mount") {
    // One visible line; CI (.ci/run) has namespaces and sets the variable that makes this a failure.
    console.warn(`SKIPPED part: searches below a swapped folder (no mount namespace here: ${report.searchSandbox}); needs unshare --mount or user namespaces`);
    expect(process.env.GROK_TOOLS_REQUIRE_SEARCH_SANDBOX ?? "0").toBe("0");
  }
  expect(raceProblems(report, RACE_TOOLS, CALLS)).toEqual([]);
});

it("without the search sandbox, searches still stay in their swapped root, and the server warns at start-up", async () => {
  const only = SEARCH_RACE_TOOLS;
  const report = await runFsRace({ callsPerTool: CALLS, concurrency: 8, only, env: { ...process.env, GROK_TOOLS_SEARCH_SANDBOX: "off" } });
  console.log(formatRaceReport(report));
  expect([report.searchSandbox, report.searchSandboxLogLevel]).toEqual(["none", 40]);
  expect(raceProblems(report, only, CALLS)).toEqual([]);
});

it("never reads or writes outside while a file flips between a regular file and a link outside (#19)", async () => {
  const report = await runFsRace({ callsPerTool: CALLS, concurrency: 8, flip: "files" });
  console.log(formatRaceReport(report));
  expect(raceProblems(report, FILE_RACE_TOOLS, CALLS)).toEqual([]);
});
