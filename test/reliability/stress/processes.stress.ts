/**
 * Processes (issue #19), full form: 100 commands ended by each of timeout, cancel and kill_task
 * (each leaving setsid/nohup descendants) leave 0 survivors; 5 fork bombs stop at their session's limit.
 *   npm run stress -- processes
 */
import { afterAll, beforeAll, it, jest } from "@jest/globals";
import type { SpawnedServer } from "@grok-tools/client";
import { forkBombContained, noDescendantsLeft, stdinReadersFinish } from "../lib/process-checks.js";
import { SMOKE } from "../../../scripts/suite-report.mjs";
import { makeRoot, startWorkspaceServer, type TestRoot } from "../lib/server.js";

jest.setTimeout(1_800_000);
const MAX_PROCESSES = 96;
/** Below the server's, so the other session keeps room while the bomb fills its own group. */
const MAX_SESSION_PROCESSES = 32;
let root: TestRoot;
let server: SpawnedServer;

beforeAll(async () => {
  root = await makeRoot("gtr-proc-stress-");
  server = await startWorkspaceServer(root, {
    env: { ...process.env, GROK_TOOLS_MAX_PROCESSES: String(MAX_PROCESSES), GROK_TOOLS_MAX_SESSION_PROCESSES: String(MAX_SESSION_PROCESSES) },
  });
});

afterAll(async () => {
  await server?.close();
  await root?.remove();
});

it("leaves no descendant across 100 runs of each way to end a command", () => noDescendantsLeft(server, SMOKE ? 5 : 100));
it("lets stdin readers see EOF at once", () => stdinReadersFinish(server));
it("stops fork bombs at their session's process limit", () => forkBombContained(server, MAX_PROCESSES, SMOKE ? 1 : 5, MAX_SESSION_PROCESSES));
