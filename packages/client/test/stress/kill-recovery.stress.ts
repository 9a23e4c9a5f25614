/**
 * Temporaries left by kill -9 (issue #23 item 3), long form: 40 kills of the real server in the
 * middle of 6 MB rewrites; after every restart no temporary survives and no file is torn.
 * `--smoke` runs 5 kills.
 *   npm run stress -- kill-recovery
 */
import { expect, it, jest } from "@jest/globals";
import { runKillRecovery } from "../kill-recovery/harness.js";
import { SMOKE, check } from "../../../../scripts/suite-report.mjs";

jest.setTimeout(1_800_000);

const KILLS = SMOKE ? 5 : 40;

it(`${KILLS} kill -9 during 6 MB edits: no temporary survives a restart, no file is torn`, () =>
  check(
    "kill recovery: kill -9 during 6 MB edits, no temporary survives a restart, no torn file, kills",
    async () => {
      const report = await runKillRecovery({ kills: KILLS, fileBytes: 6 * 1024 * 1024 });
      console.log(
        `kills ${report.kills}, of which left temporaries ${report.killsLeavingTemporaries}; acknowledged edits ${report.acknowledged}; survivors ${report.survivors.length}; torn ${report.torn.length}`,
      );
      expect(report.survivors).toEqual([]);
      expect(report.torn).toEqual([]);
      expect(report.killsLeavingTemporaries).toBeGreaterThan(KILLS / 2);
      return report.kills;
    },
    KILLS,
  ));
