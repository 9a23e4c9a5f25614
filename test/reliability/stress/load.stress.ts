/**
 * Load (issue #19), full form: 1 000 concurrent calls mixing read_file, grep, search_replace and
 * run_terminal_cmd on one server (0 unexpected errors, no lost edit, RSS back near idle), then
 * 3 000 calls cancelled at once (server healthy, no command left).
 *   npm run stress -- load
 */
import { afterAll, beforeAll, it, jest } from "@jest/globals";
import type { SpawnedServer } from "@grok-tools/client";
import { cancelStorm, mixedLoad } from "../lib/load-checks.js";
import { SMOKE } from "../lib/report.js";
import { makeRoot, startWorkspaceServer, type TestRoot } from "../lib/server.js";

jest.setTimeout(1_800_000);
let root: TestRoot;
let server: SpawnedServer;

beforeAll(async () => {
  root = await makeRoot("gtr-load-stress-");
  server = await startWorkspaceServer(root);
});

afterAll(async () => {
  await server?.close();
  await root?.remove();
});

it("takes 1 000 concurrent mixed calls", () => mixedLoad(server, root.workspace, SMOKE ? 100 : 1_000));
it("stays healthy after 3 000 calls cancelled at once", () => cancelStorm(server, SMOKE ? 200 : 3_000));
