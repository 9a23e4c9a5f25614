// Durability (issue #19), fast part: 5 kill -9s of the server during todo writes and whole-file
// edits; stress/durability.stress.ts makes 200.
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { killDuringWrites } from "./lib/durability.js";
import { check } from "../../scripts/suite-report.mjs";
import { makeRoot, type TestRoot } from "./lib/server.js";

let root: TestRoot;
beforeAll(async () => {
  root = await makeRoot("gtr-durable-");
});
afterAll(async () => {
  await root?.remove();
});

it("keeps the state file and edited files old or new through kill -9, and a restart loads the state", async () => {
  await check("durability: kill -9 during state writes and edits", async () => {
    const report = await killDuringWrites(root, 5);
    console.log(JSON.stringify(report));
    expect(report.problems).toEqual([]);
    expect(report.loaded).toBe(5);
    expect(report.acknowledgedTodos).toBeGreaterThan(0);
    expect(report.acknowledgedEdits).toBeGreaterThan(0);
    return report.kills;
  });
}, 180_000);
