// Load (issue #19), fast part: 200 concurrent mixed calls and a storm of 300 cancels;
// stress/load.stress.ts runs 1 000 and 3 000.
import { afterAll, beforeAll, it } from "@jest/globals";
import type { SpawnedServer } from "@grok-tools/client";
import { cancelStorm, mixedLoad } from "./lib/load-checks.js";
import { makeRoot, startWorkspaceServer, type TestRoot } from "./lib/server.js";

let root: TestRoot;
let server: SpawnedServer;

beforeAll(async () => {
  root = await makeRoot("gtr-load-");
  server = await startWorkspaceServer(root);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await root?.remove();
});

it("takes 200 concurrent mixed calls without an error or a lost edit, and memory settles", () => mixedLoad(server, root.workspace, 200), 240_000);
it("stays healthy after 300 calls cancelled at once", () => cancelStorm(server, 300), 120_000);
