/**
 * Reads racing the server's own edits (issue #13): the real server, driven by the real client with
 * many calls in flight, reads and edits the same files with GrokBuild read_file / search_replace
 * and Codex read_file / apply_patch. Every edit inserts a unique marker line, so that afterwards each file
 * shows whether every acknowledged edit landed exactly once. Used by `npm run stress` (and its smoke).
 */
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnServer } from "../../src/spawn-server.js";
import type { ToolCallResult } from "../../src/tool-result.js";

/** Options of {@link runEditLoad}. */
export interface EditLoadOptions {
  calls: number;
  /** Calls in flight at once. */
  concurrency: number;
  files: number;
}

/** What the load run found. */
export interface EditLoadReport {
  calls: Record<"read_file" | "codex_read_file" | "search_replace" | "apply_patch", number>;
  /** Failed calls, `tool: code message` (should be none). */
  errors: string[];
  /** Reads whose content was not a whole version of the file. */
  tornReads: string[];
  /** Markers of acknowledged edits missing from their file, or present more than once. */
  lostOrDoubled: string[];
  /** Markers found in a file that no acknowledged edit wrote. */
  unexpected: string[];
  /** Wall time of the run. */
  elapsedMs: number;
}

const ANCHOR = "ANCHOR";
const FIRST_LINE = "base of the file";

/** A small deterministic generator, so that a failing mix can be replayed. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs the mix and checks every file afterwards. */
export async function runEditLoad(options: EditLoadOptions): Promise<EditLoadReport> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), "gt-load-")));
  const ws = path.join(base, "ws");
  await mkdir(ws);
  const names = Array.from({ length: options.files }, (_, i) => `f${i}.txt`);
  for (const name of names) await writeFile(path.join(ws, name), `${FIRST_LINE}\n${ANCHOR}\n`);
  const server = await spawnServer({ workspace: ws, stateDir: path.join(base, "state") });
  const report: EditLoadReport = {
    calls: { read_file: 0, codex_read_file: 0, search_replace: 0, apply_patch: 0 },
    errors: [],
    tornReads: [],
    lostOrDoubled: [],
    unexpected: [],
    elapsedMs: 0,
  };
  const written = new Map<string, string[]>(names.map((name) => [name, []]));
  try {
    const finalized = await server.client.finalize({
      tools: [
        { id: "GrokBuild:read_file" },
        { id: "Codex:read_file", nameOverride: "codex_read_file" },
        { id: "GrokBuild:search_replace" },
        { id: "Codex:apply_patch" },
      ],
    });
    if (!finalized.success) throw new Error(`finalize failed: ${finalized.message}`);
    // search_replace edits only files read in this session (decision D2): read each once first.
    for (const name of names) {
      const first = await server.client.executeTool("read_file", { target_file: name });
      if (!first.ok) throw new Error(`setup read of ${name} failed: ${first.error.message}`);
    }
    const random = mulberry32(13);
    const plan = Array.from({ length: options.calls }, (_, i) => {
      const dice = random();
      return {
        i,
        name: names[Math.floor(random() * names.length)]!,
        tool:
          dice < 0.4 ? ("read_file" as const) : dice < 0.5 ? ("codex_read_file" as const) : dice < 0.8 ? ("search_replace" as const) : ("apply_patch" as const),
      };
    });
    const fail = (tool: string, result: ToolCallResult & { ok: false }): void => {
      report.errors.push(`${tool}: ${result.error.code} ${result.error.message.slice(0, 300)}`);
    };
    const started = Date.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < plan.length) {
        const { i, name, tool } = plan[next++]!;
        report.calls[tool]++;
        const marker = `m${i}_${tool}`;
        if (tool === "read_file") {
          const result = await server.client.executeTool("read_file", { target_file: name }, { deadlineMs: 120_000 });
          if (!result.ok) fail(tool, result);
          else if (!result.promptText.includes(FIRST_LINE) || !result.promptText.includes(ANCHOR))
            report.tornReads.push(`${name}: ${result.promptText.slice(0, 200)}`);
        } else if (tool === "codex_read_file") {
          const result = await server.client.executeTool("codex_read_file", { file_path: path.join(ws, name) }, { deadlineMs: 120_000 });
          if (!result.ok) fail(tool, result);
          else if (!result.promptText.includes(`L1: ${FIRST_LINE}`) || !result.promptText.includes(ANCHOR))
            report.tornReads.push(`${name}: ${result.promptText.slice(0, 200)}`);
        } else if (tool === "search_replace") {
          const result = await server.client.executeTool(
            "search_replace",
            { file_path: name, old_string: ANCHOR, new_string: `${marker}\n${ANCHOR}` },
            { deadlineMs: 120_000 },
          );
          if (!result.ok) fail(tool, result);
          else written.get(name)!.push(marker);
        } else {
          const patch = `*** Begin Patch\n*** Update File: ${name}\n@@\n-${ANCHOR}\n+${marker}\n+${ANCHOR}\n*** End Patch`;
          const result = await server.client.executeTool("apply_patch", { patch }, { deadlineMs: 120_000 });
          if (!result.ok) fail(tool, result);
          else written.get(name)!.push(marker);
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    report.elapsedMs = Date.now() - started;
    for (const name of names) {
      const lines = (await readFile(path.join(ws, name), "utf8")).split("\n");
      if (lines[0] !== FIRST_LINE || lines[lines.length - 2] !== ANCHOR) report.tornReads.push(`${name} on disk: ${lines.slice(0, 3).join("|")}`);
      const expected = written.get(name)!;
      for (const marker of expected) {
        const count = lines.filter((line) => line === marker).length;
        if (count !== 1) report.lostOrDoubled.push(`${name}: ${marker} found ${count} times`);
      }
      for (const line of lines.slice(1, -2)) if (!expected.includes(line)) report.unexpected.push(`${name}: ${line}`);
    }
  } finally {
    await server.close();
    await rm(base, { recursive: true, force: true });
  }
  return report;
}
