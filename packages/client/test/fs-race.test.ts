// Directory swaps (issue #12 item 6), short form: 100 calls of each file tool through the real server
// while folders flip between a real directory and a link outside. The 1 000-call form is in stress/.
import { expect, it, jest } from "@jest/globals";
import { formatRaceReport, runFsRace } from "./fs-race/harness.js";

jest.setTimeout(300_000);

it("never reads, lists or writes outside the workspace while folders are swapped for links", async () => {
  const report = await runFsRace({ callsPerTool: 100, concurrency: 8 });
  console.log(formatRaceReport(report));
  if (report.searchSandbox !== "nosymfollow-mount") {
    // One visible line; CI (.ci/run) has namespaces and sets the variable that makes this a failure.
    console.warn(`SKIPPED part: searches below a swapped folder (no mount namespace here: ${report.searchSandbox}); needs unshare --mount or user namespaces`);
    expect(process.env.GROK_TOOLS_REQUIRE_SEARCH_SANDBOX ?? "0").toBe("0");
  }
  expect(report.leaks).toEqual([]);
  expect(report.outsideChanges).toEqual([]);
  expect(report.flips).toBeGreaterThan(10);
  for (const [name, tally] of Object.entries(report.tools)) {
    expect({ name, calls: tally.calls }).toEqual({ name, calls: 100 });
    // Each tool must really have run against the folders some of the time.
    expect({ name, ok: tally.ok > 0 }).toEqual({ name, ok: true });
    expect({ name, internal: tally.errors.INTERNAL ?? 0 }).toEqual({ name, internal: 0 });
  }
});
