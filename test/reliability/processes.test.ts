// Processes (issue #19), fast part: a few commands of each kind; stress/processes.stress.ts runs 100.
import { afterAll, beforeAll, it } from "@jest/globals";
import type { SpawnedServer } from "@grok-tools/client";
import { forkBombContained, noDescendantsLeft, stdinReadersFinish } from "./lib/process-checks.js";
import { makeRoot, startWorkspaceServer, type TestRoot } from "./lib/server.js";

const MAX_PROCESSES = 96;
let root: TestRoot;
let server: SpawnedServer;

beforeAll(async () => {
  root = await makeRoot("gtr-proc-");
  server = await startWorkspaceServer(root, { env: { ...process.env, GROK_TOOLS_MAX_PROCESSES: String(MAX_PROCESSES) } });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await root?.remove();
});

it("leaves no descendant after a timeout, a cancel or kill_task", () => noDescendantsLeft(server, 3), 180_000);
it("lets stdin readers see EOF at once", () => stdinReadersFinish(server), 120_000);
it("stops a fork bomb at the process limit", () => forkBombContained(server, MAX_PROCESSES, 1), 120_000);
