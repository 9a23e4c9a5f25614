// The path-safety escape corpus of issue #19, through the real server: every tool that takes a path
// (or a working directory) gets every way out of the workspace (links in and out, dangling links,
// `..` after a link, a sibling-prefix root, absolute paths, `~`, a hard link), and must answer
// PERMISSION_DENIED without changing anything outside. A probe of an outside path must not tell
// whether it exists: the answer for a missing outside path is the same as for an existing one.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createHash } from "node:crypto";
import { link, lstat, mkdir, mkdtemp, readFile, readdir, readlink, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnServer, type SpawnedServer } from "../src/spawn-server.js";
import type { ToolCallResult } from "../src/tool-result.js";

const PERMISSION_DENIED = 204;

/** Standard file tools of every namespace that may share one toolset, with names that do not clash. */
const STANDARD_TOOLS = [
  { id: "GrokBuild:read_file" },
  { id: "GrokBuild:search_replace" },
  { id: "GrokBuild:list_dir" },
  { id: "GrokBuild:grep" },
  { id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' },
  { id: "GrokBuildConcise:search_replace", nameOverride: "concise_search_replace" },
  { id: "Codex:read_file", nameOverride: "codex_read_file" },
  { id: "Codex:list_dir", nameOverride: "codex_list_dir" },
  { id: "Codex:grep_files" },
  { id: "Codex:apply_patch" },
  { id: "OpenCode:read", nameOverride: "oc_read" },
  { id: "OpenCode:edit", nameOverride: "oc_edit" },
  { id: "OpenCode:write", nameOverride: "oc_write" },
  { id: "OpenCode:glob", nameOverride: "oc_glob" },
  { id: "OpenCode:grep", nameOverride: "oc_grep" },
  { id: "OpenCode:bash", nameOverride: "oc_bash" },
];
/** The hashline bundle may not be mixed with the standard file tools (file_toolset_conflict). */
const HASHLINE_TOOLS = [{ id: "GrokBuildHashline:hashline_read" }, { id: "GrokBuildHashline:hashline_grep" }, { id: "GrokBuildHashline:hashline_edit" }];

type Call = { tool: string; input: unknown; options?: { workingDirectory: string } };
/** How each tool is called with path `p` (the `p` given already made absolute where a tool requires it). */
type CallFor = (p: string) => Call;

const FILE_CALLS: Record<string, CallFor> = {
  read_file: (p) => ({ tool: "read_file", input: { target_file: p } }),
  search_replace: (p) => ({ tool: "search_replace", input: { file_path: p, old_string: "secret", new_string: "pwned" } }),
  search_replace_create: (p) => ({ tool: "search_replace", input: { file_path: p, old_string: "", new_string: "pwned\n" } }),
  concise_search_replace: (p) => ({ tool: "concise_search_replace", input: { file_path: p, old_string: "secret", new_string: "pwned" } }),
  list_dir: (p) => ({ tool: "list_dir", input: { target_directory: p } }),
  grep: (p) => ({ tool: "grep", input: { pattern: "secret", path: p } }),
  codex_read_file: (p) => ({ tool: "codex_read_file", input: { file_path: p } }),
  codex_list_dir: (p) => ({ tool: "codex_list_dir", input: { dir_path: p } }),
  grep_files: (p) => ({ tool: "grep_files", input: { pattern: "secret", path: p } }),
  apply_patch_update: (p) => ({ tool: "apply_patch", input: { patch: `*** Begin Patch\n*** Update File: ${p}\n@@\n-secret\n+pwned\n*** End Patch` } }),
  apply_patch_add: (p) => ({ tool: "apply_patch", input: { patch: `*** Begin Patch\n*** Add File: ${p}\n+pwned\n*** End Patch` } }),
  apply_patch_delete: (p) => ({ tool: "apply_patch", input: { patch: `*** Begin Patch\n*** Delete File: ${p}\n*** End Patch` } }),
  apply_patch_move_to: (p) => ({
    tool: "apply_patch",
    input: { patch: `*** Begin Patch\n*** Update File: src/in.txt\n*** Move to: ${p}\n@@\n-inside\n+moved\n*** End Patch` },
  }),
  oc_read: (p) => ({ tool: "oc_read", input: { filePath: p } }),
  oc_edit: (p) => ({ tool: "oc_edit", input: { filePath: p, oldString: "secret", newString: "pwned" } }),
  oc_write: (p) => ({ tool: "oc_write", input: { file_path: p, content: "pwned\n" } }),
  oc_glob: (p) => ({ tool: "oc_glob", input: { pattern: "*", path: p } }),
  oc_grep: (p) => ({ tool: "oc_grep", input: { pattern: "secret", path: p } }),
  // A working directory outside the roots: the command itself would then reach outside with relative paths.
  run_terminal_cmd: (p) => ({ tool: "run_terminal_cmd", input: { command: "echo pwned > pwned.txt", description: "probe" }, options: { workingDirectory: p } }),
  oc_bash: (p) => ({ tool: "oc_bash", input: { command: "echo pwned > pwned.txt", description: "probe", workdir: p } }),
  // The per-call working_directory moves every relative path of a file tool too.
  read_file_in_wd: (p) => ({ tool: "read_file", input: { target_file: "secret.txt" }, options: { workingDirectory: p } }),
};
const HASHLINE_CALLS: Record<string, CallFor> = {
  hashline_read: (p) => ({ tool: "hashline_read", input: { target_file: p } }),
  hashline_grep: (p) => ({ tool: "hashline_grep", input: { pattern: "secret", path: p } }),
  hashline_edit: (p) => ({ tool: "hashline_edit", input: { file_path: p, edits: [{ op: "write", content: "pwned\n" }] } }),
};

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "gt-corpus-")));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

interface Layout {
  ws: string;
  outside: string;
  evil: string;
  home: string;
}

/**
 * The workspace and everything around it:
 * - `outside/` (secret.txt, dir/secret.txt, to-ws -> ../ws/src, hard-target.txt)
 * - `ws-evil/` (a sibling whose name starts with the workspace's), `home/` (the server's HOME)
 * - in the workspace: links out (to a folder, a file, a missing path), a dangling link, a hard link
 *   to outside/hard-target.txt, and src/in.txt.
 */
async function makeLayout(name: string): Promise<Layout> {
  const root = path.join(base, name);
  const ws = path.join(root, "ws");
  const outside = path.join(root, "outside");
  const evil = path.join(root, "ws-evil");
  const home = path.join(root, "home");
  for (const dir of [path.join(ws, "src"), path.join(outside, "dir"), evil, home]) await mkdir(dir, { recursive: true });
  await writeFile(path.join(ws, "src", "in.txt"), "inside\n");
  await writeFile(path.join(outside, "secret.txt"), "secret\n");
  await writeFile(path.join(outside, "dir", "secret.txt"), "secret\n");
  await writeFile(path.join(outside, "hard-target.txt"), "secret\n");
  await writeFile(path.join(evil, "secret.txt"), "secret\n");
  await writeFile(path.join(home, "secret.txt"), "secret\n");
  await symlink(outside, path.join(ws, "link-out"));
  await symlink(path.join(outside, "secret.txt"), path.join(ws, "link-out-file"));
  await symlink(path.join(outside, "missing"), path.join(ws, "dangling-out"));
  await symlink(path.join(ws, "src"), path.join(outside, "to-ws"));
  await link(path.join(outside, "hard-target.txt"), path.join(ws, "hard.txt"));
  return { ws, outside, evil, home };
}

/** Every entry under `dir` with its kind, content hash, link target and inode: any change shows. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (current: string): Promise<void> => {
    for (const entry of (await readdir(current)).sort()) {
      const full = path.join(current, entry);
      const info = await lstat(full);
      const key = path.relative(dir, full);
      if (info.isSymbolicLink()) out[key] = `link ${await readlink(full)}`;
      else if (info.isDirectory()) {
        out[key] = "dir";
        await walk(full);
      } else
        out[key] = `file ${info.ino} ${info.nlink} ${createHash("sha256")
          .update(await readFile(full))
          .digest("hex")}`;
    }
  };
  await walk(dir);
  return out;
}

/**
 * The escape forms, each as a path (absolute, or relative to the workspace where noted) and the same
 * form for a missing target, whose answer must match the existing one's.
 */
function escapes(l: Layout): Array<{ name: string; existing: string; missing: string }> {
  return [
    { name: "absolute path", existing: path.join(l.outside, "secret.txt"), missing: path.join(l.outside, "nope.txt") },
    { name: "absolute folder", existing: path.join(l.outside, "dir"), missing: path.join(l.outside, "nodir") },
    { name: "symlink in->out (folder)", existing: path.join(l.ws, "link-out", "secret.txt"), missing: path.join(l.ws, "link-out", "nope.txt") },
    { name: "symlink in->out (file)", existing: path.join(l.ws, "link-out-file"), missing: path.join(l.ws, "link-out", "dir", "nope") },
    { name: "dangling link out", existing: path.join(l.ws, "dangling-out"), missing: path.join(l.ws, "dangling-out") },
    { name: "below a dangling link", existing: path.join(l.ws, "dangling-out", "below.txt"), missing: path.join(l.ws, "dangling-out", "a", "b.txt") },
    // Lexically ws/outside/secret.txt (inside, missing); the kernel resolves link-out first, then `..`.
    {
      name: "`..` after a link",
      existing: path.join(l.ws, "link-out") + "/../outside/secret.txt",
      missing: path.join(l.ws, "link-out") + "/../outside/nope.txt",
    },
    { name: "`..` out of the workspace", existing: "../outside/secret.txt", missing: "../outside/nope.txt" },
    { name: "sibling-prefix root", existing: path.join(l.evil, "secret.txt"), missing: path.join(l.evil, "nope.txt") },
    { name: "sibling-prefix root (folder)", existing: l.evil, missing: `${l.evil}2` },
    { name: "`~`", existing: "~/secret.txt", missing: "~/nope.txt" },
    { name: "`~` alone", existing: "~", missing: "~/nodir" },
  ];
}

/**
 * Tools that take `~` as a plain name, as the reference does (Rust's Path::join, spec §4.13): `~/x` is
 * the workspace's folder `~`, inside, so it is no escape for them.
 */
const LITERAL_TILDE = new Set([
  "codex_read_file",
  "codex_list_dir",
  "grep_files",
  "apply_patch_update",
  "apply_patch_add",
  "apply_patch_delete",
  "apply_patch_move_to",
  "oc_grep",
  "oc_bash",
]);

/**
 * Calls whose path is the request's `working_directory`: it is joined onto the workspace lexically
 * (spec §8.5), so `link/..` is the workspace itself and `~` a folder named `~`, both inside, and the
 * command then runs in exactly that lexical path: no escape to test there.
 */
const LEXICAL_WORKING_DIRECTORY = new Set(["run_terminal_cmd", "read_file_in_wd"]);

/** Tools that require absolute paths get the workspace-relative forms made absolute (they are the same escape). */
const ABSOLUTE_ONLY = new Set(["codex_read_file", "codex_list_dir"]);

async function start(
  name: string,
  tools: Array<{ id: string; nameOverride?: string; paramsJson?: string }>,
): Promise<{ server: SpawnedServer; layout: Layout }> {
  const layout = await makeLayout(name);
  const server = await spawnServer({
    workspace: layout.ws,
    stateDir: path.join(base, name, "state"),
    env: { ...process.env, HOME: layout.home },
  });
  const finalized = await server.client.finalize({ tools });
  if (!finalized.success) throw new Error(`${finalized.message} ${JSON.stringify(finalized.violations)}`);
  return { server, layout };
}

function describeResult(result: ToolCallResult): string {
  return result.ok ? `ok: ${result.promptText.slice(0, 200)}` : `${result.error.code}`;
}

/** Runs every escape through every call and returns the wrong answers (an empty list is the pass). */
async function probeAll(server: SpawnedServer, layout: Layout, calls: Record<string, CallFor>): Promise<string[]> {
  const wrong: string[] = [];
  for (const [label, callFor] of Object.entries(calls)) {
    for (const escape of escapes(layout)) {
      if (LITERAL_TILDE.has(label) && escape.existing.startsWith("~")) continue;
      if (LEXICAL_WORKING_DIRECTORY.has(label) && (escape.existing.startsWith("~") || escape.name === "`..` after a link")) continue;
      const answers: ToolCallResult[] = [];
      for (const p of [escape.existing, escape.missing]) {
        const given = ABSOLUTE_ONLY.has(label) && !p.startsWith("/") && !p.startsWith("~") ? path.join(layout.ws, p) : p;
        const call = callFor(given);
        answers.push(await server.client.executeTool(call.tool, call.input, call.options ?? {}));
      }
      const [existing, missing] = answers as [ToolCallResult, ToolCallResult];
      if (existing.ok || existing.error.code !== PERMISSION_DENIED) wrong.push(`${label} / ${escape.name}: ${describeResult(existing)}`);
      // Same code, and the same message once the paths themselves are taken out: nothing tells them apart.
      const strip = (r: ToolCallResult) => (r.ok ? "ok" : `${r.error.code} ${r.error.message.replace(/[~/][^\s,)'\`]*/g, "<path>")}`);
      if (strip(existing) !== strip(missing)) {
        wrong.push(`${label} / ${escape.name}: existing and missing differ: ${strip(existing)} | ${strip(missing)}`);
      }
    }
  }
  return wrong;
}

describe("the escape corpus against the standard file tools", () => {
  let env: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    env = await start("standard", STANDARD_TOOLS);
  });
  afterAll(async () => {
    await env?.server.close();
  });

  it("refuses every escape with PERMISSION_DENIED, the same for existing and missing paths, and changes nothing outside", async () => {
    const { ws, outside, evil, home } = env.layout;
    const before = await Promise.all([outside, evil, home].map(snapshot));
    // Read first, so that a missing read-before-edit cannot be what refuses an edit.
    for (const p of [path.join(ws, "link-out", "secret.txt"), path.join(ws, "link-out-file")])
      await env.server.client.executeTool("read_file", { target_file: p });
    expect(await probeAll(env.server, env.layout, FILE_CALLS)).toEqual([]);
    expect(await Promise.all([outside, evil, home].map(snapshot))).toEqual(before);
    expect(await readFile(path.join(ws, "src", "in.txt"), "utf8")).toBe("inside\n");
  });

  it("lets a link from outside into the workspace be used: the file opened is inside", async () => {
    const viaOutside = path.join(env.layout.outside, "to-ws", "in.txt");
    const read = await env.server.client.executeTool("read_file", { target_file: viaOutside });
    expect(read.ok && read.promptText).toContain("inside");
    const codex = await env.server.client.executeTool("codex_read_file", { file_path: viaOutside });
    expect(codex.ok && codex.promptText).toBe("L1: inside");
  });

  it("reads through a hard link to an outside file, but refuses to edit it and never changes the outside inode", async () => {
    const { ws, outside } = env.layout;
    const hard = path.join(ws, "hard.txt");
    const target = path.join(outside, "hard-target.txt");
    const inode = (await lstat(target)).ino;
    const read = await env.server.client.executeTool("read_file", { target_file: hard });
    expect(read.ok && read.promptText).toContain("secret");
    const edits: Call[] = [
      FILE_CALLS.search_replace!(hard),
      FILE_CALLS.concise_search_replace!(hard),
      FILE_CALLS.apply_patch_update!(hard),
      FILE_CALLS.oc_edit!(hard),
      FILE_CALLS.oc_write!(hard),
    ];
    for (const call of edits) {
      await env.server.client.executeTool("read_file", { target_file: hard });
      await env.server.client.executeTool("oc_read", { filePath: hard });
      const result = await env.server.client.executeTool(call.tool, call.input);
      // Refused (decision in docs/decisions.md): replacing the name would silently split the links.
      expect({ tool: call.tool, code: result.ok ? "ok" : result.error.code }).toEqual({ tool: call.tool, code: PERMISSION_DENIED });
      expect({ tool: call.tool, content: await readFile(target, "utf8"), ino: (await lstat(target)).ino }).toEqual({
        tool: call.tool,
        content: "secret\n",
        ino: inode,
      });
      // Put the link back for the next edit (an edit that succeeded replaced it with a file of its own).
      await rm(hard, { force: true });
      await link(target, hard);
    }
  });

  it("runs commands in a working directory inside the workspace", async () => {
    const run = await env.server.client.executeTool("run_terminal_cmd", { command: "pwd", description: "where" }, { workingDirectory: "src" });
    if (!run.ok) throw new Error(JSON.stringify(run.error));
    expect(run.ok && run.promptText).toContain(path.join(env.layout.ws, "src"));
    const bash = await env.server.client.executeTool("oc_bash", { command: "pwd", description: "where", workdir: "src" });
    expect(bash.ok && bash.promptText).toContain(path.join(env.layout.ws, "src"));
  });
});

describe("the escape corpus against the hashline tools", () => {
  let env: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    env = await start("hashline", HASHLINE_TOOLS);
  });
  afterAll(async () => {
    await env?.server.close();
  });

  it("refuses every escape with PERMISSION_DENIED, the same for existing and missing paths, and changes nothing outside", async () => {
    const { outside, evil, home } = env.layout;
    const before = await Promise.all([outside, evil, home].map(snapshot));
    expect(await probeAll(env.server, env.layout, HASHLINE_CALLS)).toEqual([]);
    expect(await Promise.all([outside, evil, home].map(snapshot))).toEqual(before);
  });

  it("refuses an edit through a hard link and leaves the outside inode as it was", async () => {
    const { ws, outside } = env.layout;
    const hard = path.join(ws, "hard.txt");
    const target = path.join(outside, "hard-target.txt");
    const inode = (await lstat(target)).ino;
    await env.server.client.executeTool("hashline_read", { target_file: hard });
    const result = await env.server.client.executeTool("hashline_edit", HASHLINE_CALLS.hashline_edit!(hard).input);
    expect(result.ok ? "ok" : result.error.code).toBe(PERMISSION_DENIED);
    expect({ content: await readFile(target, "utf8"), ino: (await lstat(target)).ino }).toEqual({ content: "secret\n", ino: inode });
  });
});
