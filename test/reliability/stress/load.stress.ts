/**
 * Load (issue #19), full form: 1 000 concurrent calls mixing read_file, grep, search_replace and
 * run_terminal_cmd on one server, twice (0 unexpected errors, no lost edit, memory back to its idle
 * level), then 3 000 calls cancelled at once (each CANCELLED or answered before the cancel, server
 * healthy, no command left).
 *   npm run stress -- load
 */
import { afterAll, beforeAll, it, jest } from "@jest/globals";
import { startInspectedServer, type InspectedServer } from "../lib/heap.js";
import { cancelStorm, mixedLoad } from "../lib/load-checks.js";
import { SMOKE } from "../../../scripts/suite-report.mjs";
import { makeRoot, type TestRoot } from "../lib/server.js";

jest.setTimeout(1_800_000);
let root: TestRoot;
let inspected: InspectedServer;

beforeAll(async () => {
  root = await makeRoot("gtr-load-stress-");
  inspected = await startInspectedServer(root);
});

afterAll(async () => {
  await inspected?.server.close();
  await root?.remove();
});

it("takes 2 × 1 000 concurrent mixed calls, and memory returns to idle", () => mixedLoad(inspected, root.workspace, SMOKE ? 100 : 1_000));
it("answers each of 3 000 calls cancelled at once exactly, and stays healthy", () => cancelStorm(inspected.server, SMOKE ? 200 : 3_000));
