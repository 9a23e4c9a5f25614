// Load (issue #19), fast part: 2 × 200 concurrent mixed calls (memory back to idle afterwards) and
// a storm of 300 cancels; stress/load.stress.ts runs 2 × 1 000 and 3 000.
import { afterAll, beforeAll, it } from "@jest/globals";
import { startInspectedServer, type InspectedServer } from "./lib/heap.js";
import { cancelStorm, mixedLoad } from "./lib/load-checks.js";
import { makeRoot, type TestRoot } from "./lib/server.js";

let root: TestRoot;
let inspected: InspectedServer;

beforeAll(async () => {
  root = await makeRoot("gtr-load-");
  inspected = await startInspectedServer(root);
}, 60_000);

afterAll(async () => {
  await inspected?.server.close();
  await root?.remove();
});

it(
  "takes 2 × 200 concurrent mixed calls without an error or a lost edit, and memory returns to idle",
  () => mixedLoad(inspected, root.workspace, 200),
  300_000,
);
it("answers each of 300 calls cancelled at once exactly, and stays healthy", () => cancelStorm(inspected.server, 300), 120_000);
