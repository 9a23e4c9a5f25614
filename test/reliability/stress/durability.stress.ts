/**
 * Durability (issue #19), full form: 200 kill -9s of the real server at random moments while todo
 * writes (state saves) and whole-file edits run; after each, the state file parses, every edited
 * file is one whole version no older than the last acknowledged one, and the restarted server
 * has every acknowledged todo.
 *   npm run stress -- durability
 */
import { afterAll, beforeAll, expect, it, jest } from "@jest/globals";
import { killDuringWrites } from "../lib/durability.js";
import { SMOKE, check } from "../../../scripts/suite-report.mjs";
import { makeRoot, type TestRoot } from "../lib/server.js";

jest.setTimeout(3_600_000);
const KILLS = SMOKE ? 10 : 200;
let root: TestRoot;
beforeAll(async () => {
  root = await makeRoot("gtr-durable-stress-");
});
afterAll(async () => {
  await root?.remove();
});

it(`survives ${KILLS} kill -9s during state writes and edits`, async () => {
  await check("durability: kill -9 during state writes and edits", async () => {
    const report = await killDuringWrites(root, KILLS);
    console.log(JSON.stringify({ ...report, problems: report.problems.slice(0, 20) }));
    expect(report.problems).toEqual([]);
    expect(report.loaded).toBe(KILLS);
    return report.kills;
  });
});
