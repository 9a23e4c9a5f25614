/**
 * Stress run, not part of the unit suite (issue 23.1): `npm run stress` (CI runs `npm run stress --
 * --smoke`), or alone from packages/client:
 *   node --experimental-vm-modules ../../node_modules/jest/bin/jest.js --testMatch '<rootDir>/test/stress/*.stress.ts'
 * Acknowledged work survives `kill -9`: the real server takes 200 edits and todo writes (8 in
 * flight, so commits group), is killed with SIGKILL the moment the last one is acknowledged, and a
 * new server on the same workspace and state folder finds every edited file, every todo and every
 * read record. Several rounds, since a loss is a race.
 */
import { jest } from "@jest/globals";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnServer, type SpawnedServer } from "../../src/spawn-server.js";
import { SMOKE, check } from "../../../../scripts/suite-report.mjs";

jest.setTimeout(600_000);

const OPERATIONS = SMOKE ? 40 : 200;
const ROUNDS = SMOKE ? 1 : 5;
const IN_FLIGHT = 8;
const TOOLS = [{ id: "GrokBuild:todo_write" }, { id: "GrokBuild:search_replace" }, { id: "GrokBuild:read_file" }];

interface Round {
  workspace: string;
  stateDir: string;
  todos: string[];
  files: string[];
}

async function start(round: Round): Promise<SpawnedServer> {
  const server = await spawnServer({ workspace: round.workspace, stateDir: round.stateDir });
  const finalized = await server.client.finalize({ tools: TOOLS });
  if (!finalized.success) throw new Error(finalized.message);
  return server;
}

/** Runs every operation, IN_FLIGHT at a time; resolves when the last one is acknowledged. */
async function runOperations(server: SpawnedServer, round: Round): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < OPERATIONS) {
      const i = next++;
      const result =
        i % 2 === 0
          ? await server.client.executeTool("todo_write", { todos: [{ id: `todo-${i}`, content: `task ${i}`, status: "in_progress" }] })
          : await server.client.executeTool("search_replace", { file_path: `edits/file-${i}.txt`, old_string: "", new_string: `edit ${i}\n` });
      if (!result.ok) throw new Error(`operation ${i} failed: ${result.error.message}`);
      if (i % 2 === 0) round.todos.push(`todo-${i}`);
      else round.files.push(`edits/file-${i}.txt`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

it(`keeps all of ${OPERATIONS} acknowledged edits and todo writes through kill -9, ${ROUNDS} round(s)`, async () => {
  await check("durability: acknowledged edits and todos kept through kill -9 at the last ack, operations", keepsAcknowledgedWork, OPERATIONS * ROUNDS);
});

/** Every round: the operations, kill -9 at the last ack, a new server; returns the operations checked. */
async function keepsAcknowledgedWork(): Promise<number> {
  const root = await mkdtemp(path.join(tmpdir(), "gtc-durability-"));
  let checked = 0;
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const round: Round = { workspace: path.join(root, `ws-${r}`), stateDir: path.join(root, `state-${r}`), todos: [], files: [] };
      await mkdir(round.workspace);
      const first = await start(round);
      await runOperations(first, round);
      // The moment the last ack arrived: no close, no flush, no grace.
      first.process.kill("SIGKILL");
      await first.close();

      const second = await start(round);
      try {
        const state = JSON.parse((await second.client.getToolState()).stateJson) as {
          state: { "grok_build.Todo": { todos: Record<string, { content: string }> }; "grok_build.FileReadTracker": Record<string, unknown> };
        };
        const todos = state.state["grok_build.Todo"].todos;
        expect(round.todos.filter((id) => todos[id]?.content !== `task ${id.slice(5)}`)).toEqual([]);
        const tracked = new Set(Object.keys(state.state["grok_build.FileReadTracker"]));
        expect(round.files.filter((f) => !tracked.has(path.join(round.workspace, f)))).toEqual([]);
        const contents = await Promise.all(round.files.map((f) => readFile(path.join(round.workspace, f), "utf8").catch(() => "")));
        expect(round.files.filter((f, i) => contents[i] !== `edit ${f.slice(11, -4)}\n`)).toEqual([]);
        expect(round.todos.length + round.files.length).toBe(OPERATIONS);
        checked += OPERATIONS;
      } finally {
        await second.close();
      }
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return checked;
}
