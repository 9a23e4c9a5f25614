// Processes (issue #19), fast part: a few commands of each kind; stress/processes.stress.ts runs 100.
import { afterAll, beforeAll, it } from "@jest/globals";
import type { SpawnedServer } from "@grok-tools/client";
import { forkBombContained, noDescendantsLeft, stdinReadersFinish } from "./lib/process-checks.js";
import { makeRoot, startWorkspaceServer, type TestRoot } from "./lib/server.js";

const MAX_PROCESSES = 96;
/** Small, so the bomb reaches it fast and the other session keeps most of the server's limit. */
const MAX_SESSION_PROCESSES = 32;
let root: TestRoot;
let server: SpawnedServer;

beforeAll(async () => {
  root = await makeRoot("gtr-proc-");
  server = await startWorkspaceServer(root, {
    env: { ...process.env, GROK_TOOLS_MAX_PROCESSES: String(MAX_PROCESSES), GROK_TOOLS_MAX_SESSION_PROCESSES: String(MAX_SESSION_PROCESSES) },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await root?.remove();
});

it("leaves no descendant after a timeout, a cancel or kill_task", () => noDescendantsLeft(server, 3), 180_000);
it("lets stdin readers see EOF at once", () => stdinReadersFinish(server), 120_000);
it(
  "stops a fork bomb at its session's process limit while another session runs commands",
  () => forkBombContained(server, MAX_PROCESSES, 1, MAX_SESSION_PROCESSES),
  120_000,
);
