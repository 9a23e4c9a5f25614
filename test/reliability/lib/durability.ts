/**
 * kill -9 during state writes and file edits: each round starts the real server on the same
 * workspace and state folder, checks that it loaded every todo acknowledged so far, then runs
 * todo writes and whole-file edits concurrently and kills the server with SIGKILL at a random
 * moment. Between rounds the state file must parse and every edited file must be one whole
 * version (old or new, never torn) no older than the last acknowledged one.
 */
import { spawnServer, type SpawnedServer } from "@grok-tools/client";
import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { TestRoot } from "./server.js";

const FILES = 3;
const LINES = 4_000;

/** Version `n` of a file: every line carries `@n@`, so a mix of two versions shows. */
function versionText(n: number): string {
  return `x @${n}@\n`.repeat(LINES);
}

/** The version a file's content is, or undefined when it is torn (lines of different versions). */
function versionOf(text: string): number | undefined {
  const first = /^x @(\d+)@\n/.exec(text)?.[1];
  if (first === undefined) return undefined;
  return text === versionText(Number(first)) ? Number(first) : undefined;
}

async function stateFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (entry.isFile() && entry.name.endsWith(".json")) out.push(path.join(entry.parentPath, entry.name));
  }
  return out;
}

export interface DurabilityReport {
  kills: number;
  /** Rounds whose restarted server had every acknowledged todo. */
  loaded: number;
  acknowledgedTodos: number;
  acknowledgedEdits: number;
  problems: string[];
}

const TOOLS = [{ id: "GrokBuild:todo_write" }, { id: "GrokBuild:search_replace", paramsJson: '{"skip_read_before_edit":true}' }, { id: "GrokBuild:read_file" }];

/** Runs `rounds` kill rounds on `root`'s workspace. */
export async function killDuringWrites(root: TestRoot, rounds: number): Promise<DurabilityReport> {
  const report: DurabilityReport = { kills: 0, loaded: 0, acknowledgedTodos: 0, acknowledgedEdits: 0, problems: [] };
  const acknowledged = new Set<string>();
  const fileVersion = Array.from({ length: FILES }, () => 0);
  // Files holding an edit that landed but whose answer the kill cut off: the restarted server's
  // read record is of the version before, so it says FILE_EXTERNALLY_MODIFIED until they are
  // read again, as a model would. Only for them: an acknowledged edit's record must have survived.
  const unacknowledged = new Set<number>();
  for (let f = 0; f < FILES; f++) await writeFile(path.join(root.workspace, `durable-${f}.txt`), versionText(0));
  for (let round = 0; round < rounds; round++) {
    const server: SpawnedServer = await spawnServer({ workspace: root.workspace, stateDir: root.stateDir });
    const finalized = await server.client.finalize({ tools: TOOLS });
    if (!finalized.success) throw new Error(`round ${round}: finalize failed: ${finalized.message}`);
    const state = JSON.parse((await server.client.getToolState()).stateJson) as { state?: { "grok_build.Todo"?: { todos: Record<string, unknown> } } };
    const todos = state.state?.["grok_build.Todo"]?.todos ?? {};
    const missing = [...acknowledged].filter((id) => !Object.hasOwn(todos, id));
    if (missing.length === 0) report.loaded++;
    else report.problems.push(`round ${round}: restarted server lacks acknowledged todos ${missing.slice(0, 5).join(", ")}`);
    for (const f of unacknowledged) {
      const read = await server.client.executeTool("read_file", { target_file: `durable-${f}.txt`, limit: 1 });
      if (!read.ok) report.problems.push(`round ${round}: re-read of durable-${f}.txt: ${read.error.message}`);
    }
    unacknowledged.clear();
    let killed = false;
    const todoLoop = async () => {
      for (let i = 0; !killed; i++) {
        const id = `r${round}-${i}`;
        const result = await server.client.executeTool("todo_write", { todos: [{ id, content: `task ${id}`, status: "pending" }] }).catch(() => undefined);
        if (result?.ok) {
          acknowledged.add(id);
          report.acknowledgedTodos++;
        }
      }
    };
    const editLoop = async (f: number) => {
      while (!killed) {
        const from = fileVersion[f]!;
        const result = await server.client
          .executeTool("search_replace", { file_path: `durable-${f}.txt`, old_string: `@${from}@`, new_string: `@${from + 1}@`, replace_all: true })
          .catch(() => undefined);
        if (!result) return;
        if (result.ok) {
          fileVersion[f] = from + 1;
          report.acknowledgedEdits++;
        } else return void report.problems.push(`round ${round}: edit of durable-${f}.txt from ${from}: ${result.error.message.slice(0, 120)}`);
      }
    };
    const editsBefore = report.acknowledgedEdits;
    const todosBefore = report.acknowledgedTodos;
    const loops = [todoLoop(), ...Array.from({ length: FILES }, (_, f) => editLoop(f))];
    // On a loaded machine a fixed delay can pass before the first edit is answered, and the round
    // proves nothing; so each round first sees one edit and one todo acknowledged, then the kill
    // lands at a random moment after that.
    const progressBy = Date.now() + 60_000;
    while ((report.acknowledgedEdits === editsBefore || report.acknowledgedTodos === todosBefore) && Date.now() < progressBy && report.problems.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 800));
    server.process.kill("SIGKILL");
    killed = true;
    await server.close();
    await Promise.all(loops);
    report.kills++;
    for (let f = 0; f < FILES; f++) {
      const text = await readFile(path.join(root.workspace, `durable-${f}.txt`), "utf8");
      const version = versionOf(text);
      if (version === undefined) report.problems.push(`round ${round}: durable-${f}.txt is torn (${text.length} bytes)`);
      else if (version < fileVersion[f]!)
        report.problems.push(`round ${round}: durable-${f}.txt went back to ${version} after ${fileVersion[f]} was acknowledged`);
      else if (version > fileVersion[f]!) {
        fileVersion[f] = version; // An edit that landed but whose answer the kill cut off.
        unacknowledged.add(f);
      }
    }
    for (const file of await stateFiles(root.stateDir)) {
      const text = await readFile(file, "utf8").catch(() => "");
      try {
        JSON.parse(text);
      } catch {
        report.problems.push(`round ${round}: ${path.relative(root.stateDir, file)} does not parse (${text.length} bytes)`);
      }
    }
  }
  return report;
}
