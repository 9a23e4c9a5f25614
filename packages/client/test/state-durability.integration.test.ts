// Integration (issues 23.1, 22.2): through the real grok-tools-server and client, an acknowledged
// state change is already in the state file when the ack arrives, and a state write that fails at
// run time reaches the caller as EXECUTION_FAILED saying the call's effect happened. (The kill -9
// run is the durability stress, test/stress/durability.stress.ts.)
import { afterAll, beforeAll, expect, it, jest } from "@jest/globals";
import { ErrorCode } from "@grok-tools/proto";
import { mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnServer, type SpawnedServer } from "../src/spawn-server.js";
import { spawnTimeoutMs } from "./timeouts.js";

// The hook and a test start a server each.
jest.setTimeout(spawnTimeoutMs());

const STATE_FILE = "resources_state.json";

let root: string;
let workspace: string;
let stateDir: string;
let server: SpawnedServer;

/** The session's state file, wherever under the state folder the server keeps it. */
async function findStateFile(dir: string): Promise<string> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === STATE_FILE) return path.join(entry.parentPath, entry.name);
  }
  throw new Error(`no ${STATE_FILE} under ${dir}`);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "gtc-durable-"));
  workspace = path.join(root, "ws");
  stateDir = path.join(root, "state");
  await mkdir(workspace);
  server = await spawnServer({ workspace, stateDir });
  const finalized = await server.client.finalize({
    tools: [{ id: "GrokBuild:todo_write" }, { id: "GrokBuild:search_replace" }, { id: "GrokBuild:read_file" }],
  });
  expect(finalized.success).toBe(true);
});

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

it("has an acknowledged todo in the state file when the ack arrives", async () => {
  const file = await findStateFile(stateDir);
  for (let i = 0; i < 20; i++) {
    const result = await server.client.executeTool("todo_write", { todos: [{ id: `t${i}`, content: `task ${i}` }] });
    expect(result.ok).toBe(true);
    const onDisk = JSON.parse(await readFile(file, "utf8")) as { state: { "grok_build.Todo": { todos: Record<string, unknown> } } };
    expect(Object.keys(onDisk.state["grok_build.Todo"].todos)).toHaveLength(i + 1);
  }
});

it("answers EXECUTION_FAILED when the state cannot be written, says the edit happened, and recovers", async () => {
  const file = await findStateFile(stateDir);
  const sessionDir = path.dirname(file);
  const kept = `${sessionDir}.kept`;
  await rm(kept, { recursive: true, force: true });
  await rename(sessionDir, kept);
  await writeFile(sessionDir, "a file where the session folder was");
  try {
    const result = await server.client.executeTool("search_replace", { file_path: "made.txt", old_string: "", new_string: "made\n" });
    if (result.ok) throw new Error("expected the state write to fail");
    expect(result.error.code).toBe(ErrorCode.ERROR_CODE_EXECUTION_FAILED);
    expect(result.error.retryable).toBe(false);
    expect(result.error.message).toMatch(
      new RegExp(
        `^search_replace ran, but the session state could not be saved to ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: [A-Za-z ]+ \\(os error \\d+\\)\\. What the call did has taken effect`,
      ),
    );
    // The edit itself happened.
    expect(await readFile(path.join(workspace, "made.txt"), "utf8")).toBe("made\n");
  } finally {
    await rm(sessionDir);
    await rename(kept, sessionDir);
  }
  // Writable again: the next state change saves everything, the failed call's record included.
  const next = await server.client.executeTool("todo_write", { todos: [{ id: "after", content: "after the failure" }] });
  expect(next.ok).toBe(true);
  const onDisk = JSON.parse(await readFile(file, "utf8")) as { state: Record<string, Record<string, unknown>> };
  expect(Object.keys(onDisk.state["grok_build.FileReadTracker"]!)).toContain(path.join(workspace, "made.txt"));
  expect(Object.keys(onDisk.state["grok_build.Todo"]!.todos as object)).toContain("after");
});

it("finalizes when the state cannot be written, and says so in the message", async () => {
  const ownState = path.join(root, "state-blocked");
  const own = await spawnServer({ workspace: path.join(root, "ws"), stateDir: ownState });
  const kept = `${ownState}.kept`;
  try {
    // The whole state folder, whatever its layout, becomes a file: nothing under it can be written.
    await rm(kept, { recursive: true, force: true });
    await mkdir(ownState, { recursive: true });
    await rename(ownState, kept);
    await writeFile(ownState, "a file where the state folder was");
    const finalized = await own.client.finalize({
      tools: [{ id: "GrokBuild:todo_write" }],
      initialToolStateJson: JSON.stringify({ state: { "grok_build.Todo": { todos: { seeded: { content: "seeded", status: "pending" } } } } }),
    });
    expect(finalized.success).toBe(true);
    expect(finalized.message).toMatch(
      new RegExp(
        `^Finalized 1 tool\\(s\\); but the session state could not be saved to ${ownState.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/.*resources_state\\.json: [A-Za-z ]+ \\(os error \\d+\\)\\. It holds in memory, and the next tool call saves it again; until then a restart of the server would lose it\\.$`,
      ),
    );
    // Writable again: the next call saves the seeded state with its own change.
    await rm(ownState);
    await rename(kept, ownState);
    const next = await own.client.executeTool("todo_write", { todos: [{ id: "after", content: "after" }] });
    expect(next.ok).toBe(true);
    const onDisk = JSON.parse(await readFile(await findStateFile(ownState), "utf8")) as { state: { "grok_build.Todo": { todos: Record<string, unknown> } } };
    expect(Object.keys(onDisk.state["grok_build.Todo"].todos)).toEqual(["seeded", "after"]);
  } finally {
    await own.close();
    await rm(kept, { recursive: true, force: true });
  }
});
