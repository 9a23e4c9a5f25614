/**
 * Reads racing the server's own edits (issue #13): 1 000 calls with 64 in flight, reading and
 * editing the same 50 files through the real server and client; 0 errors and every edit applied
 * exactly once. `--smoke` (CI) runs 200 calls.
 *   npm run stress -- edit-load
 */
import { expect, it, jest } from "@jest/globals";
import { runEditLoad } from "../edit-load/harness.js";
import { SMOKE, check } from "../../../../scripts/suite-report.mjs";

jest.setTimeout(900_000);

const CALLS = SMOKE ? 200 : 1_000;

it(`${CALLS} reads and edits of the same 50 files, 64 in flight: no error, every edit once`, () =>
  check(
    "edit load: reads racing edits of 50 files, 64 in flight, no torn read, every edit once, calls",
    async () => {
      const report = await runEditLoad({ calls: CALLS, concurrency: 64, files: 50 });
      console.log(
        `calls ${JSON.stringify(report.calls)} in ${report.elapsedMs} ms; errors ${report.errors.length}, torn ${report.tornReads.length}, lost or doubled ${report.lostOrDoubled.length}`,
      );
      expect(report.errors).toEqual([]);
      expect(report.tornReads).toEqual([]);
      expect(report.lostOrDoubled).toEqual([]);
      expect(report.unexpected).toEqual([]);
      expect(report.calls.search_replace + report.calls.apply_patch).toBeGreaterThan(CALLS / 4);
      return Object.values(report.calls).reduce((sum, n) => sum + n, 0);
    },
    CALLS,
  ));
