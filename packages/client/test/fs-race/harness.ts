/**
 * The directory-swap race (issue #12 item 6): the real server, driven by the real client, runs every
 * file tool that takes a folder or creates a file while another process flips folders of the
 * workspace between a real directory and a symlink to a folder outside it. The report says what
 * each tool answered and whether anything outside was read, listed or written. Used by the short
 * test in `npm test` and the 1 000-call run in `npm run stress`.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { spawnServer } from "../../src/spawn-server.js";
import type { ToolCallResult } from "../../src/tool-result.js";

/** One tool of the race and how its i-th call looks. */
interface RaceTool {
  name: string;
  input(i: number): unknown;
}

/** What one tool answered over the run. */
export interface ToolTally {
  calls: number;
  ok: number;
  /** Error code name → count (FILE_NOT_FOUND while a folder is mid-flip, PERMISSION_DENIED while it is a link). */
  errors: Record<string, number>;
  /** Answers that showed the outside folder's canary. */
  leaks: number;
  /** The first message of each error code, for the log. */
  examples: Record<string, string>;
}

/** The outcome of a race run. */
export interface RaceReport {
  tools: Record<string, ToolTally>;
  /** The first answers that showed the outside folder's canary (its content or a file name), shortened. */
  leaks: string[];
  /** Differences between the outside folder before and after the run. */
  outsideChanges: string[];
  /** How many times each folder was flipped during the run. */
  flips: number;
  /** Error lines of the server's log (an INTERNAL answer logs its stack there). */
  serverErrors: string[];
  /**
   * How the server keeps ripgrep from following links below its root (its start-up log):
   * `nosymfollow-mount`, or `none` where the kernel offers no mount namespace; then the searches
   * only run on the flipped folder itself, not on its parent.
   */
  searchSandbox: string;
}

/** Options of {@link runFsRace}. */
export interface RaceOptions {
  callsPerTool: number;
  /** Calls in flight at once. */
  concurrency: number;
}

const ERROR_NAMES: Record<number, string> = { 100: "INVALID_INPUT", 200: "FILE_NOT_FOUND", 204: "PERMISSION_DENIED", 300: "EXECUTION_FAILED", 500: "INTERNAL" };

/** Every file below `dir` (links as links) with its content: the picture compared before and after. */
async function snapshot(dir: string, prefix = ""): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of (await readdir(dir)).sort()) {
    const full = path.join(dir, name);
    const info = await lstat(full);
    const key = `${prefix}${name}`;
    if (info.isSymbolicLink()) out.set(key, `link:${await readlink(full)}`);
    else if (info.isDirectory()) for (const [k, v] of await snapshot(full, `${key}/`)) out.set(k, v);
    else out.set(key, `file:${await readFile(full, "utf8")}`);
  }
  out.set(`${prefix}.`, "dir");
  return out;
}

function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [key, value] of after) if (before.get(key) !== value) out.push(`${before.has(key) ? "changed" : "appeared"}: ${key}`);
  for (const key of before.keys()) if (!after.has(key)) out.push(`vanished: ${key}`);
  return out;
}

/** Starts the flipper process and resolves once it runs; `stop()` resolves to its flip count. */
async function startFlipper(targets: { path: string; outside: string }[]): Promise<{ stop(): Promise<number> }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "flipper.mjs"), JSON.stringify(targets)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let exited: number | null | undefined;
  createInterface({ input: child.stdout! }).on("line", (line) => {
    lines.push(line);
    waiters.splice(0).forEach((wake) => wake());
  });
  child.on("exit", (code) => {
    exited = code;
    waiters.splice(0).forEach((wake) => wake());
  });
  const nextLine = async (): Promise<string> => {
    while (lines.length === 0) {
      if (exited !== undefined) throw new Error(`the flipper exited (code ${exited}) before it answered`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    return lines.shift()!;
  };
  if ((await nextLine()) !== "ready") throw new Error("flipper did not start");
  return {
    async stop() {
      child.stdin!.end();
      return (JSON.parse(await nextLine()) as { flips: number }).flips;
    },
  };
}

/** Runs every tool `callsPerTool` times, interleaved, with `concurrency` calls in flight. */
export async function runFsRace(options: RaceOptions): Promise<RaceReport> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), "gt-race-")));
  const ws = path.join(base, "ws");
  const outside = path.join(base, "outside");
  const canary = `CANARY${randomBytes(6).toString("hex")}`;
  // The outside folder has the inside files' names too, so a leak shows by content as well as by name.
  await mkdir(path.join(outside, "sub"), { recursive: true });
  await writeFile(path.join(outside, `${canary}.txt`), `needle ${canary}\n`);
  await writeFile(path.join(outside, "inside.txt"), `needle ${canary} inside\n`);
  await writeFile(path.join(outside, "sub", "inner.txt"), `needle ${canary} inner\n`);
  await mkdir(path.join(ws, "top"), { recursive: true });
  await writeFile(path.join(ws, "top", "plain.txt"), "needle top\n");
  const before = await snapshot(outside);

  const serverErrors: string[] = [];
  let pending = "";
  let onSandbox: (mode: string) => void = () => undefined;
  const sandboxMode = new Promise<string>((resolve) => (onSandbox = resolve));
  const server = await spawnServer({
    workspace: ws,
    stateDir: path.join(base, "state"),
    onStderr: (text) => {
      const lines = (pending + text).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (/"level":(50|60)/.test(line)) serverErrors.push(line.slice(0, 2000));
        const sandbox = /"searchSandbox":"([a-z-]+)"/.exec(line)?.[1];
        if (sandbox !== undefined) onSandbox(sandbox);
      }
    },
  });
  const searchSandbox = await Promise.race([sandboxMode, new Promise<string>((resolve) => setTimeout(() => resolve("unknown"), 20_000).unref())]);
  const tools: RaceTool[] = [];
  // Even calls use the flipped folder itself, odd calls its parent (the swap then happens below the root of the call).
  const folder = (i: number): string => (i % 2 === 0 ? "flip" : "top");
  const flipped = (i: number): string => (i % 2 === 0 ? "flip" : "top/nested");
  tools.push({ name: "list_dir", input: (i) => ({ target_directory: folder(i) }) });
  // Without a mount namespace ripgrep could follow a folder swapped below its root: search the flipped folder only.
  const searchFolder = (i: number): string => (searchSandbox === "none" ? "flip" : folder(i));
  tools.push({ name: "grep", input: (i) => ({ pattern: "needle", path: searchFolder(i) }) });
  tools.push({ name: "codex_list_dir", input: (i) => ({ dir_path: path.join(ws, folder(i)), depth: 4, limit: 200 }) });
  tools.push({ name: "grep_files", input: (i) => ({ pattern: "needle", path: path.join(ws, searchFolder(i)) }) });
  tools.push({ name: "search_replace", input: (i) => ({ file_path: `${flipped(i)}/sr_${i}.txt`, old_string: "", new_string: `created ${i}\n` }) });
  tools.push({
    name: "apply_patch",
    input: (i) => ({ patch: `*** Begin Patch\n*** Add File: ${flipped(i)}${i % 4 < 2 ? "" : `/new_${i}`}/ap_${i}.txt\n+patched ${i}\n*** End Patch` }),
  });
  tools.push({ name: "read_file", input: (i) => ({ target_file: `${flipped(i)}/inside.txt` }) });
  tools.push({ name: "codex_read_file", input: (i) => ({ file_path: path.join(ws, flipped(i), "sub", "inner.txt") }) });

  const report: RaceReport = { tools: {}, leaks: [], outsideChanges: [], flips: 0, serverErrors, searchSandbox };
  try {
    const finalized = await server.client.finalize({
      tools: [
        { id: "GrokBuild:list_dir" },
        { id: "GrokBuild:grep" },
        { id: "GrokBuild:read_file" },
        { id: "GrokBuild:search_replace" },
        { id: "Codex:list_dir", nameOverride: "codex_list_dir" },
        { id: "Codex:grep_files" },
        { id: "Codex:apply_patch" },
        { id: "Codex:read_file", nameOverride: "codex_read_file" },
      ],
    });
    if (!finalized.success) throw new Error(`finalize failed: ${finalized.message}`);
    const flipper = await startFlipper([
      { path: path.join(ws, "flip"), outside },
      { path: path.join(ws, "top", "nested"), outside },
    ]);
    const queue: { tool: RaceTool; i: number }[] = [];
    for (let i = 0; i < options.callsPerTool; i++) for (const tool of tools) queue.push({ tool, i });
    for (const tool of tools) report.tools[tool.name] = { calls: 0, ok: 0, errors: {}, leaks: 0, examples: {} };
    const record = (tool: RaceTool, result: ToolCallResult): void => {
      const tally = report.tools[tool.name]!;
      tally.calls++;
      if (result.ok) tally.ok++;
      else {
        const name = ERROR_NAMES[result.error.code] ?? String(result.error.code);
        tally.errors[name] = (tally.errors[name] ?? 0) + 1;
        tally.examples[name] ??= result.error.message.slice(0, 300);
      }
      const text = JSON.stringify(result);
      if (!text.includes(canary)) return;
      tally.leaks++;
      if (report.leaks.length < 10) report.leaks.push(`${tool.name}: ${text.slice(0, 400)}`);
    };
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < queue.length) {
        const { tool, i } = queue[next++]!;
        record(tool, await server.client.executeTool(tool.name, tool.input(i), { deadlineMs: 60_000 }));
      }
    };
    try {
      await Promise.all(Array.from({ length: options.concurrency }, worker));
    } finally {
      report.flips = await flipper.stop();
    }
    report.outsideChanges = differences(before, await snapshot(outside));
  } finally {
    await server.close();
    await rm(base, { recursive: true, force: true });
  }
  return report;
}

/** One line per tool, for the test log. */
export function formatRaceReport(report: RaceReport): string {
  const rows = Object.entries(report.tools).map(([name, t]) => `${name.padEnd(16)} calls ${t.calls}  ok ${t.ok}  leaks ${t.leaks}  ${JSON.stringify(t.errors)}`);
  const examples = Object.entries(report.tools).flatMap(([name, t]) => Object.entries(t.examples).map(([code, message]) => `  ${name} ${code}: ${message}`));
  return [`search sandbox: ${report.searchSandbox}`, ...rows, ...examples, ...report.serverErrors.map((line) => `  server: ${line}`), `flips ${report.flips}, outside changes ${report.outsideChanges.length}${report.outsideChanges.length > 0 ? ` (${report.outsideChanges.slice(0, 5).join(", ")})` : ""}`].join("\n");
}
