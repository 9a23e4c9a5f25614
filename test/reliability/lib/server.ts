/**
 * Starts the real grok-tools-server (spawned, as a user would) on loopback for a test, with a
 * temp root holding the workspace `ws/` and a sentinel folder `outside/` beside it, and every
 * tool of every namespace finalized under its default client name.
 */
import { spawnServer, type SpawnServerOptions, type SpawnedServer } from "@grok-tools/client";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** The sentinel text every file outside the workspace holds: it must never show in an answer. */
export const SENTINEL = "OUTSIDE-SENTINEL-7f3a9c";

/** Tools finalized by {@link startWorkspaceServer}, with client names that do not collide. */
export const ALL_TOOLS = [
  { id: "GrokBuild:run_terminal_cmd" },
  { id: "GrokBuild:read_file" },
  { id: "GrokBuild:search_replace" },
  { id: "GrokBuild:list_dir" },
  { id: "GrokBuild:grep" },
  { id: "GrokBuild:todo_write" },
  { id: "GrokBuild:get_task_output" },
  { id: "GrokBuild:kill_task" },
  { id: "GrokBuild:web_fetch" },
  { id: "Codex:apply_patch" },
  { id: "Codex:list_dir", nameOverride: "codex_list_dir" },
  { id: "Codex:grep_files" },
  { id: "Codex:read_file", nameOverride: "codex_read_file" },
];

export interface TestRoot {
  /** The temp folder holding everything (real path). */
  root: string;
  /** The server's workspace. */
  workspace: string;
  /** A folder beside the workspace with sentinel files. */
  outside: string;
  stateDir: string;
  remove(): Promise<void>;
}

/** A temp root with `ws/` (a.txt, sub/b.txt) and `outside/` (secret.txt holding the sentinel). */
export async function makeRoot(prefix = "gtr-"): Promise<TestRoot> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  const workspace = path.join(root, "ws");
  const outside = path.join(root, "outside");
  await mkdir(path.join(workspace, "sub"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(workspace, "a.txt"), "alpha\nneedle one\n");
  await writeFile(path.join(workspace, "sub", "b.txt"), "beta\nneedle two\n");
  await writeFile(path.join(outside, "secret.txt"), `${SENTINEL}\nneedle outside\n`);
  return { root, workspace, outside, stateDir: path.join(root, "state"), remove: () => rm(root, { recursive: true, force: true }) };
}

/** Starts the server on `root.workspace`, finalizes `tools`, and returns it. */
export async function startWorkspaceServer(
  root: TestRoot,
  options: Partial<SpawnServerOptions> & { tools?: { id: string; nameOverride?: string; paramsJson?: string }[] } = {},
): Promise<SpawnedServer> {
  const { tools = ALL_TOOLS, ...spawnOptions } = options;
  const server = await spawnServer({ workspace: root.workspace, stateDir: root.stateDir, ...spawnOptions });
  const finalized = await server.client.finalize({ tools });
  if (!finalized.success) {
    await server.close();
    throw new Error(`finalize failed: ${finalized.message}`);
  }
  return server;
}

/** Whether the server process is still alive. */
export function alive(server: SpawnedServer): boolean {
  return server.process.exitCode === null && server.process.signalCode === null;
}
