// Temporaries left by kill -9 (issue #23 item 3), short form: the real server is killed mid-write of
// a 2 MB file three times; every restart removes the temporaries and the files are never torn.
// The long form (more kills, 6 MB files) is in stress/.
import { expect, it, jest } from "@jest/globals";
import { runKillRecovery } from "./kill-recovery/harness.js";

jest.setTimeout(300_000);

it("removes the temporaries of a server killed mid-write at restart; files are old or new, never torn", async () => {
  const report = await runKillRecovery({ kills: 3, fileBytes: 2 * 1024 * 1024 });
  console.log(JSON.stringify(report));
  expect(report.survivors).toEqual([]);
  expect(report.torn).toEqual([]);
  expect(report.kills).toBe(3);
  // The kills must really have landed while a temporary existed.
  expect(report.killsLeavingTemporaries).toBeGreaterThan(0);
});
