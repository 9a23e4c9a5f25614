/**
 * The directory-swap race (issue #12 item 6): the real server, driven by the real client, runs every
 * file tool that takes a path (lists, searches, reads, creates, edits, deletes and moves) of the
 * GrokBuild, Codex, OpenCode and hashline namespaces (#19) while
 * another process flips folders of the workspace between a real directory and a symlink to a folder
 * outside it. The outside folder holds files of the same names whose content would let every edit
 * apply there too, plus a canary. The report says what each tool answered and whether anything
 * outside was read, listed or written. Used by the short test in `npm test` and the 1 000-call run
 * in `npm run stress`.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { createToolsClient } from "../../src/client.js";
import { spawnServer } from "../../src/spawn-server.js";
import type { ToolCallResult } from "../../src/tool-result.js";

/** One call of a race entry: the tool (its client-facing name) and its input. */
interface RaceStep {
  tool: string;
  input: unknown;
  /**
   * The session that makes the call: `hashline` for the hashline tools, which may not share a
   * toolset with the standard file tools (file_toolset_conflict); the default session otherwise.
   */
  session?: "hashline";
}

/** One entry of the race (a tool, or a tool in one of its modes) and how its i-th call looks. */
interface RaceTool {
  name: string;
  /** The calls made in order (an edit that needs a read first is two); the first failure ends them. */
  steps(i: number): RaceStep[];
  /**
   * How many times a failed sequence is tried again from its first call (default 1). A two-call
   * sequence succeeds only when both calls meet the same real folder, about one time in eight;
   * a few attempts keep "it succeeded at least once" from depending on luck.
   */
  attempts?: number;
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
  /** Answers that named a descriptor of the server (`/proc/self/fd/N`) instead of a path the caller knows. */
  descriptorPaths: string[];
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
  /** The log level of the server's start-up line about the sandbox (30 info, 40 warn). */
  searchSandboxLogLevel: number | undefined;
}

/** Options of {@link runFsRace}. */
export interface RaceOptions {
  callsPerTool: number;
  /** Calls in flight at once. */
  concurrency: number;
  /** The server's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Run only these entries of the race (default: all). */
  only?: readonly string[];
  /**
   * What flips: `folders` (default) between a directory and a link to an outside folder, or
   * `files`: `flip.txt` between a regular file and a link to an outside file (issue #19).
   */
  flip?: "folders" | "files";
}

/** The entries of the file-flip race: every tool that reads, searches or edits a file by path. */
export const FILE_RACE_TOOLS = [
  "read_file",
  "codex_read_file",
  "grep",
  "grep_files",
  "search_replace edit",
  "concise edit",
  "apply_patch update",
  "apply_patch delete",
  "oc_read",
  "oc_edit",
  "oc_write",
  "oc_glob",
  "oc_grep",
  "hashline_read",
  "hashline_edit",
  "hashline_grep",
] as const;

/** The names of the race's entries. */
export const RACE_TOOLS = [
  "list_dir",
  "grep",
  "codex_list_dir",
  "grep_files",
  "search_replace create",
  "search_replace edit",
  "concise create",
  "concise edit",
  "apply_patch add",
  "apply_patch update",
  "apply_patch delete",
  "apply_patch move",
  "read_file",
  "codex_read_file",
  "oc_read",
  "oc_read folder",
  "oc_edit",
  "oc_edit create",
  "oc_write",
  "oc_glob",
  "oc_grep",
  "hashline_read",
  "hashline_edit",
  "hashline_grep",
] as const;

/** The search entries, the ones the race without the search sandbox runs. */
export const SEARCH_RACE_TOOLS = ["grep", "grep_files", "oc_glob", "oc_grep", "hashline_grep"] as const;

const ERROR_NAMES: Record<number, string> = {
  100: "INVALID_INPUT",
  200: "FILE_NOT_FOUND",
  201: "FILE_NOT_READ",
  202: "FILE_EXTERNALLY_MODIFIED",
  204: "PERMISSION_DENIED",
  205: "MULTIPLE_MATCHES",
  206: "NO_MATCHES",
  300: "EXECUTION_FAILED",
  301: "TIMEOUT",
  500: "INTERNAL",
};

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
async function startFlipper(targets: { path: string; outside: string; kind?: "file" }[]): Promise<{ stop(): Promise<number> }> {
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
  // Files the edits of the race would apply to as well, were they reached (see flipper.mjs for the inside ones).
  await writeFile(path.join(outside, "edit.txt"), `needle edit\n${canary}\n`);
  await writeFile(path.join(outside, "move.txt"), `needle move\n${canary}\n`);
  await writeFile(path.join(outside, "doomed.txt"), `${canary}\n`);
  await writeFile(path.join(outside, "write.txt"), `needle write\n${canary}\n`);
  await writeFile(path.join(outside, "anchored.txt"), `needle anchored\n${canary}\n`);
  await mkdir(path.join(ws, "top"), { recursive: true });
  await writeFile(path.join(ws, "top", "plain.txt"), "needle top\n");
  // The file-flip race's outside target: edits would apply to it too, were they let through.
  await writeFile(path.join(outside, "target.txt"), `needle flip\n${canary}\n`);
  const before = await snapshot(outside);

  const serverErrors: string[] = [];
  let pending = "";
  let onSandbox: (found: { mode: string; level: number | undefined }) => void = () => undefined;
  const sandboxLine = new Promise<{ mode: string; level: number | undefined }>((resolve) => (onSandbox = resolve));
  const server = await spawnServer({
    workspace: ws,
    stateDir: path.join(base, "state"),
    ...(options.env === undefined ? {} : { env: options.env }),
    onStderr: (text) => {
      const lines = (pending + text).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (/"level":(50|60)/.test(line)) serverErrors.push(line.slice(0, 2000));
        const sandbox = /"searchSandbox":"([a-z-]+)"/.exec(line)?.[1];
        const level = /"level":(\d+)/.exec(line)?.[1];
        if (sandbox !== undefined) onSandbox({ mode: sandbox, level: level === undefined ? undefined : Number(level) });
      }
    },
  });
  const sandbox = await Promise.race([
    sandboxLine,
    new Promise<{ mode: string; level: undefined }>((resolve) => setTimeout(() => resolve({ mode: "unknown", level: undefined }), 20_000).unref()),
  ]);
  const searchSandbox = sandbox.mode;
  // Even calls use the flipped folder itself, odd calls its parent (the swap then happens below the root of the call).
  const folder = (i: number): string => (i % 2 === 0 ? "flip" : "top");
  const flipped = (i: number): string => (i % 2 === 0 ? "flip" : "top/nested");
  // Without a mount namespace ripgrep could follow a folder swapped below its root: search the flipped folder only.
  const searchFolder = (i: number): string => (searchSandbox === "none" ? "flip" : folder(i));
  const patch = (body: string): { patch: string } => ({ patch: `*** Begin Patch\n${body}\n*** End Patch` });
  const one = (tool: string, input: unknown): RaceStep[] => [{ tool, input }];
  const hashline = (tool: string, input: unknown): RaceStep[] => [{ tool, input, session: "hashline" }];
  // Content-only anchors of the first lines the hashline edits insert after, learnt from a read before
  // the race (see below): they hold for the outside files too, so an edit let through would apply there.
  const anchorOf: Record<"needle anchored" | "needle flip", string> = { "needle anchored": "", "needle flip": "" };
  const entries: Record<(typeof RACE_TOOLS)[number], (i: number) => RaceStep[]> = {
    list_dir: (i) => one("list_dir", { target_directory: folder(i) }),
    grep: (i) => one("grep", { pattern: "needle", path: searchFolder(i) }),
    codex_list_dir: (i) => one("codex_list_dir", { dir_path: path.join(ws, folder(i)), depth: 4, limit: 200 }),
    grep_files: (i) => one("grep_files", { pattern: "needle", path: path.join(ws, searchFolder(i)) }),
    "search_replace create": (i) => one("search_replace", { file_path: `${flipped(i)}/sr_${i}.txt`, old_string: "", new_string: `created ${i}\n` }),
    // The full tool records a read first; an edit that reached outside would find a file it can edit there too.
    "search_replace edit": (i) => [
      { tool: "read_file", input: { target_file: `${flipped(i)}/edit.txt` } },
      { tool: "search_replace", input: { file_path: `${flipped(i)}/edit.txt`, old_string: "needle edit", new_string: `needle edit\nsr ${i}` } },
    ],
    "concise create": (i) => one("search_replace_concise", { file_path: `${flipped(i)}/src_${i}.txt`, old_string: "", new_string: `created ${i}\n` }),
    "concise edit": (i) => [
      { tool: "read_file", input: { target_file: `${flipped(i)}/edit.txt` } },
      { tool: "search_replace_concise", input: { file_path: `${flipped(i)}/edit.txt`, old_string: "needle edit", new_string: `needle edit\nsrc ${i}` } },
    ],
    "apply_patch add": (i) => one("apply_patch", patch(`*** Add File: ${flipped(i)}${i % 4 < 2 ? "" : `/new_${i}`}/ap_${i}.txt\n+patched ${i}`)),
    "apply_patch update": (i) => one("apply_patch", patch(`*** Update File: ${flipped(i)}/edit.txt\n@@\n needle edit\n+ap ${i}`)),
    "apply_patch delete": (i) => one("apply_patch", patch(`*** Delete File: ${flipped(i)}/doomed.txt`)),
    // From one flipped folder into the other.
    "apply_patch move": (i) =>
      one("apply_patch", patch(`*** Update File: ${flipped(i)}/move.txt\n*** Move to: ${flipped(i + 1)}/moved_${i}.txt\n@@\n needle move\n+moved ${i}`)),
    read_file: (i) => one("read_file", { target_file: `${flipped(i)}/inside.txt` }),
    codex_read_file: (i) => one("codex_read_file", { file_path: path.join(ws, flipped(i), "sub", "inner.txt") }),
    oc_read: (i) => one("oc_read", { filePath: `${flipped(i)}/inside.txt` }),
    // A folder read lists it through a second open of its real path: listing the outside folder would show the canary's name.
    "oc_read folder": (i) => one("oc_read", { filePath: flipped(i) }),
    // OpenCode asks no read first, but an edit after a read must find what was read: read, then edit.
    oc_edit: (i) => [
      { tool: "oc_read", input: { filePath: `${flipped(i)}/edit.txt` } },
      { tool: "oc_edit", input: { filePath: `${flipped(i)}/edit.txt`, oldString: "needle edit", newString: `needle edit\noc ${i}` } },
    ],
    "oc_edit create": (i) => one("oc_edit", { filePath: `${flipped(i)}/oce_${i}.txt`, oldString: "", newString: `created ${i}\n` }),
    // The write reads the previous content (it is in the answer) and replaces it; half the calls create a new folder on the way.
    oc_write: (i) =>
      one("oc_write", { file_path: i % 4 < 2 ? `${flipped(i)}/write.txt` : `${flipped(i)}/new_${i}/ocw_${i}.txt`, content: `needle write\nocw ${i}\n` }),
    oc_glob: (i) => one("oc_glob", { pattern: "**/*.txt", path: searchFolder(i) }),
    oc_grep: (i) => one("oc_grep", { pattern: "needle", path: searchFolder(i) }),
    hashline_read: (i) => hashline("hashline_read", { target_file: `${flipped(i)}/inside.txt` }),
    // Half the calls insert after an anchored line, half create a file with a whole-file write.
    hashline_edit: (i) =>
      hashline(
        "hashline_edit",
        i % 4 < 2
          ? { file_path: `${flipped(i)}/anchored.txt`, edits: [{ op: "insert_after", anchor: anchorOf["needle anchored"], content: `hl ${i}` }] }
          : { file_path: `${flipped(i)}/hl_${i}.txt`, edits: [{ op: "write", content: `created ${i}\n` }] },
      ),
    hashline_grep: (i) => hashline("hashline_grep", { pattern: "needle", path: searchFolder(i) }),
  };
  const fileEntries: Record<(typeof FILE_RACE_TOOLS)[number], (i: number) => RaceStep[]> = {
    read_file: () => one("read_file", { target_file: "flip.txt" }),
    codex_read_file: () => one("codex_read_file", { file_path: path.join(ws, "flip.txt") }),
    grep: () => one("grep", { pattern: "needle", path: "flip.txt" }),
    grep_files: () => one("grep_files", { pattern: "needle", path: path.join(ws, "flip.txt") }),
    // The two-call edits flip files of their own: on the shared flip.txt, the deletes and the other edits
    // left a read and its edit almost no window together, and on a loaded machine none succeeded.
    "search_replace edit": (i) => [
      { tool: "read_file", input: { target_file: "flip-sr.txt" } },
      { tool: "search_replace", input: { file_path: "flip-sr.txt", old_string: "needle flip", new_string: `needle flip\nsr ${i}` } },
    ],
    "concise edit": (i) => [
      { tool: "read_file", input: { target_file: "flip-concise.txt" } },
      { tool: "search_replace_concise", input: { file_path: "flip-concise.txt", old_string: "needle flip", new_string: `needle flip\nsrc ${i}` } },
    ],
    "apply_patch update": (i) => one("apply_patch", patch(`*** Update File: flip.txt\n@@\n needle flip\n+ap ${i}`)),
    "apply_patch delete": () => one("apply_patch", patch("*** Delete File: flip.txt")),
    oc_read: () => one("oc_read", { filePath: "flip.txt" }),
    oc_edit: (i) => [
      { tool: "oc_read", input: { filePath: "flip-oc.txt" } },
      { tool: "oc_edit", input: { filePath: "flip-oc.txt", oldString: "needle flip", newString: `needle flip\noc ${i}` } },
    ],
    // Keeps the first line, so the update, the anchored edit and the searches of flip.txt still find theirs.
    oc_write: (i) => one("oc_write", { file_path: "flip.txt", content: `needle flip\nocw ${i}\n` }),
    oc_glob: () => one("oc_glob", { pattern: "*", path: "flip.txt" }),
    oc_grep: () => one("oc_grep", { pattern: "needle", path: "flip.txt" }),
    hashline_read: () => hashline("hashline_read", { target_file: "flip.txt" }),
    hashline_edit: (i) =>
      hashline("hashline_edit", { file_path: "flip.txt", edits: [{ op: "insert_after", anchor: anchorOf["needle flip"], content: `hl ${i}` }] }),
    hashline_grep: () => hashline("hashline_grep", { pattern: "needle", path: "flip.txt" }),
  };
  // The entries that succeed least often on their own (two calls, or a file that the first success moves away).
  const attempts: Partial<Record<(typeof RACE_TOOLS)[number], number>> = {
    // In the file flip, a search of the one flipping file found it inside 8-11 times in 100 on a loaded machine.
    grep_files: 3,
    "search_replace edit": 5,
    "concise edit": 5,
    "apply_patch update": 3,
    "apply_patch move": 3,
    oc_edit: 5,
    // Writes in a flipped folder, measured at 2-14 successes in 100 single attempts on a loaded machine.
    "oc_edit create": 3,
    oc_write: 3,
    hashline_edit: 3,
  };
  const flipFiles = options.flip === "files";
  const names: readonly string[] = flipFiles ? FILE_RACE_TOOLS : RACE_TOOLS;
  const stepsOf = (name: string) => (flipFiles ? fileEntries[name as (typeof FILE_RACE_TOOLS)[number]] : entries[name as (typeof RACE_TOOLS)[number]]);
  const tools: RaceTool[] = names
    .filter((name) => options.only === undefined || options.only.includes(name))
    .map((name) => ({
      name,
      steps: stepsOf(name),
      ...(attempts[name as (typeof RACE_TOOLS)[number]] === undefined ? {} : { attempts: attempts[name as (typeof RACE_TOOLS)[number]]! }),
    }));

  // The hashline tools' own session (they refuse to share a toolset with the standard file tools).
  const hashlineClient = createToolsClient({ address: server.address, sessionId: "race-hashline" });
  const report: RaceReport = {
    tools: {},
    leaks: [],
    descriptorPaths: [],
    outsideChanges: [],
    flips: 0,
    serverErrors,
    searchSandbox,
    searchSandboxLogLevel: sandbox.level,
  };
  try {
    const finalized = await server.client.finalize({
      tools: [
        { id: "GrokBuild:list_dir" },
        { id: "GrokBuild:grep" },
        { id: "GrokBuild:read_file" },
        // Not demanding a read means an edit that reached a file outside would not be stopped by the read tracker either
        // (the two variants share their params, so both say so).
        { id: "GrokBuild:search_replace", paramsJson: JSON.stringify({ skip_read_before_edit: true }) },
        { id: "GrokBuildConcise:search_replace", nameOverride: "search_replace_concise", paramsJson: JSON.stringify({ skip_read_before_edit: true }) },
        { id: "Codex:list_dir", nameOverride: "codex_list_dir" },
        { id: "Codex:grep_files" },
        { id: "Codex:apply_patch" },
        { id: "Codex:read_file", nameOverride: "codex_read_file" },
        { id: "OpenCode:read", nameOverride: "oc_read" },
        { id: "OpenCode:edit", nameOverride: "oc_edit" },
        { id: "OpenCode:write", nameOverride: "oc_write" },
        { id: "OpenCode:glob", nameOverride: "oc_glob" },
        { id: "OpenCode:grep", nameOverride: "oc_grep" },
      ],
    });
    if (!finalized.success) throw new Error(`finalize failed: ${finalized.message}`);
    // Content-only anchors depend on the line alone, so the outside files' first lines carry the same ones.
    const contentOnly = JSON.stringify({ scheme: "content_only" });
    const hashlineFinalized = await hashlineClient.finalize({
      tools: [
        { id: "GrokBuildHashline:hashline_read", paramsJson: contentOnly },
        { id: "GrokBuildHashline:hashline_edit", paramsJson: contentOnly },
        { id: "GrokBuildHashline:hashline_grep", paramsJson: contentOnly },
      ],
    });
    if (!hashlineFinalized.success) throw new Error(`hashline finalize failed: ${hashlineFinalized.message}`);
    await writeFile(path.join(ws, "anchors.txt"), "needle anchored\nneedle flip\n");
    const anchors = await hashlineClient.executeTool("hashline_read", { target_file: "anchors.txt" });
    if (!anchors.ok) throw new Error(`hashline_read of the anchors failed: ${anchors.error.message}`);
    for (const line of anchors.promptText.split("\n")) {
      const found = /^\s*\d+:([a-z]+)→(.*)$/.exec(line);
      if (found !== null && found[2]! in anchorOf) anchorOf[found[2] as keyof typeof anchorOf] = `1:${found[1]}`;
    }
    if (Object.values(anchorOf).includes("")) throw new Error(`no anchors in ${anchors.promptText}`);
    const flipper = await startFlipper(
      flipFiles
        ? ["flip.txt", "flip-sr.txt", "flip-concise.txt", "flip-oc.txt"].map((name) => ({
            path: path.join(ws, name),
            outside: path.join(outside, "target.txt"),
            kind: "file" as const,
          }))
        : [
            { path: path.join(ws, "flip"), outside },
            { path: path.join(ws, "top", "nested"), outside },
          ],
    );
    const queue: { tool: RaceTool; i: number }[] = [];
    for (let i = 0; i < options.callsPerTool; i++) for (const tool of tools) queue.push({ tool, i });
    for (const tool of tools) report.tools[tool.name] = { calls: 0, ok: 0, errors: {}, leaks: 0, examples: {} };
    /** Makes the calls of one entry, checks every answer for the canary, and counts the outcome. */
    const run = async (tool: RaceTool, i: number): Promise<void> => {
      const tally = report.tools[tool.name]!;
      tally.calls++;
      let failed: ToolCallResult | undefined;
      for (let attempt = 0; attempt < (tool.attempts ?? 1); attempt++) {
        failed = undefined;
        for (const step of tool.steps(i)) {
          const client = step.session === "hashline" ? hashlineClient : server.client;
          const result = await client.executeTool(step.tool, step.input, { deadlineMs: 60_000 });
          const text = JSON.stringify(result);
          if (text.includes("/proc/self/fd") && report.descriptorPaths.length < 10)
            report.descriptorPaths.push(`${tool.name} (${step.tool}): ${text.slice(0, 400)}`);
          if (text.includes(canary)) {
            tally.leaks++;
            if (report.leaks.length < 10) report.leaks.push(`${tool.name} (${step.tool}): ${text.slice(0, 400)}`);
          }
          if (!result.ok) {
            failed = result;
            break;
          }
        }
        if (failed === undefined) break;
      }
      if (failed === undefined || failed.ok) {
        tally.ok++;
        return;
      }
      const name = ERROR_NAMES[failed.error.code] ?? String(failed.error.code);
      tally.errors[name] = (tally.errors[name] ?? 0) + 1;
      tally.examples[name] ??= failed.error.message.slice(0, 300);
    };
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < queue.length) {
        const { tool, i } = queue[next++]!;
        await run(tool, i);
      }
    };
    try {
      await Promise.all(Array.from({ length: options.concurrency }, worker));
    } finally {
      report.flips = await flipper.stop();
    }
    report.outsideChanges = differences(before, await snapshot(outside));
  } finally {
    hashlineClient.close();
    await server.close();
    await rm(base, { recursive: true, force: true });
  }
  return report;
}

/**
 * What a run did wrong, as lines (none when it passed): anything outside shown or changed, a
 * descriptor path in an answer, an INTERNAL error, too few flips, or an entry that did not make
 * its calls or never once succeeded (then it did not really race the folders).
 */
export function raceProblems(report: RaceReport, entries: readonly string[], callsPerTool: number): string[] {
  const problems = [
    ...report.leaks.map((leak) => `leak: ${leak}`),
    ...report.outsideChanges.map((change) => `outside ${change}`),
    ...report.descriptorPaths.map((answer) => `descriptor path: ${answer}`),
  ];
  if (report.flips <= 10) problems.push(`only ${report.flips} flips`);
  const ran = Object.keys(report.tools).sort();
  if (JSON.stringify(ran) !== JSON.stringify([...entries].sort())) problems.push(`ran ${ran.join(", ")}`);
  for (const [name, tally] of Object.entries(report.tools)) {
    if (tally.calls !== callsPerTool) problems.push(`${name}: ${tally.calls} calls`);
    if (tally.ok === 0) problems.push(`${name}: never succeeded`);
    if ((tally.errors.INTERNAL ?? 0) > 0) problems.push(`${name}: ${tally.errors.INTERNAL} INTERNAL errors`);
  }
  return problems;
}

/** One line per tool, for the test log. */
export function formatRaceReport(report: RaceReport): string {
  const rows = Object.entries(report.tools).map(
    ([name, t]) => `${name.padEnd(16)} calls ${t.calls}  ok ${t.ok}  leaks ${t.leaks}  ${JSON.stringify(t.errors)}`,
  );
  const examples = Object.entries(report.tools).flatMap(([name, t]) => Object.entries(t.examples).map(([code, message]) => `  ${name} ${code}: ${message}`));
  return [
    `search sandbox: ${report.searchSandbox}`,
    ...rows,
    ...examples,
    ...report.serverErrors.map((line) => `  server: ${line}`),
    `flips ${report.flips}, outside changes ${report.outsideChanges.length}${report.outsideChanges.length > 0 ? ` (${report.outsideChanges.slice(0, 5).join(", ")})` : ""}`,
  ].join("\n");
}
