// GrokBuild:list_dir: the current and legacy renderers over checked folders, budgets, and calls through a session.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode, defineNamespace } from "@grok-tools/runtime";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { openDirUnconfined, type CheckedDir } from "@grok-tools/runtime/fs";
import { listDir } from "./list-dir.js";
import { budgetExpand, buildTree } from "./render.js";
import { renderLegacy } from "./versions/legacy-0-4-10.js";
import { grokBuildBehaviour } from "../namespace.js";

const ns = defineNamespace({ name: "GrokBuild", apiVersion: 1, tools: [listDir], ...grokBuildBehaviour });
let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "listdir-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `fn` on the test folder opened as a checked folder. */
async function withDir<T>(fn: (root: CheckedDir) => Promise<T>): Promise<T> {
  const root = await openDirUnconfined(dir);
  try {
    return await fn(root);
  } finally {
    await root.close();
  }
}

async function files(spec: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(spec)) {
    const full = path.join(dir, rel);
    await mkdir(path.dirname(full), { recursive: true });
    if (rel.endsWith("/")) await mkdir(full, { recursive: true });
    else await writeFile(full, content);
  }
}

async function run(input: unknown, entry: Record<string, unknown> = {}, preset?: string, toolName = "list_dir") {
  const s = new Session({ registry: ToolRegistry.of([ns]), workspace: dir, stateDir: path.join(os.tmpdir(), "listdir-state") });
  const ok = await s.finalize({ tools: [{ id: "GrokBuild:list_dir", ...entry }], ...(preset ? { behaviorPreset: preset } : {}) });
  if (!ok.ok) throw new Error(ok.message);
  try {
    return await s.execute({ toolName, inputJson: JSON.stringify(input) });
  } finally {
    await s.close();
  }
}

const FIXTURE = {
  "src/main.rs": "fn main() {}",
  "src/lib.rs": "pub mod util;",
  "src/util/helpers.rs": "pub fn help() {}",
  "tests/test_main.rs": "#[test] fn it_works() {}",
  "README.md": "# Project",
  "Cargo.toml": "[package]",
};

test("legacy renderer matches the reference's archived fixture", async () => {
  await files(FIXTURE);
  expect(await withDir((root) => renderLegacy(root, 40_000))).toBe(
    "  - Cargo.toml\n  - README.md\n  - src/\n    - lib.rs\n    - main.rs\n    - util/\n      [1 file in subtree: 1 *.rs]\n  - tests/\n    - test_main.rs",
  );
});

test("current renderer expands small trees fully and sorts dirs with their slash", async () => {
  await files({ ...FIXTURE, "a.txt": "", a_b: "", "a/x.txt": "" });
  const r = await run({ target_directory: "." });
  if (!r.ok) throw new Error(r.error.message);
  expect(r.promptText).toBe(
    `- ${dir}/\n  - a.txt\n  - a/\n    - x.txt\n  - a_b\n  - Cargo.toml\n  - README.md\n  - src/\n    - lib.rs\n    - main.rs\n    - util/\n      - helpers.rs\n  - tests/\n    - test_main.rs`,
  );
  expect(JSON.parse(r.outputJson)).toEqual({ type: "ListDir", Content: { content: r.promptText, absolute_root_path: `${dir}/.` } });
});

test("a folder that does not fit collapses into a summary", async () => {
  const spec: Record<string, string> = {};
  for (let i = 0; i < 50; i++) spec[`big/file${i}.rs`] = "";
  await files(spec);
  const { tree, truncated } = await withDir((root) => buildTree(root, true));
  const body = budgetExpand(tree, 200, truncated, "NOTICE");
  expect(body).toBe("  - big/\n    [50 files in subtree: 50 *.rs]\n");
});

test("root overflow renders whole root items then the notice with client names", async () => {
  const spec: Record<string, string> = {};
  for (let i = 0; i < 30; i++) spec[`entry_${String(i).padStart(2, "0")}.txt`] = "";
  await files(spec);
  const r = await run({ target_directory: "" }, { paramsJson: JSON.stringify({ max_output_chars: 60 }), nameOverride: "ls" }, undefined, "ls");
  if (!r.ok) throw new Error(r.error.message);
  expect(r.promptText).toBe(
    `- ${dir}/\n  - entry_00.txt\n  - entry_01.txt\n  - entry_02.txt\n    ...\n\nNote: this directory is too large to list fully. Try ls on a narrower path, or use  / .`,
  );
});

test("gitignored and hidden entries are skipped inside a git work tree", async () => {
  await files({ ".git/HEAD": "ref: refs/heads/main\n", ".gitignore": "*.log\nbuild/\n", "a.log": "", "b.txt": "", "build/out.js": "", ".hidden": "" });
  const r = await run({ target_directory: "./" });
  expect(r.ok && r.promptText).toBe(`- ${dir}/\n  - b.txt`);
});

test("error kinds map to D1 codes with the reference's texts", async () => {
  await files({ "a_file.txt": "x" });
  const missing = await run({ target_directory: "nope" });
  expect(!missing.ok && [missing.error.code, missing.error.message]).toEqual([ErrorCode.FILE_NOT_FOUND, `Error: ${dir}/nope does not exist.`]);
  const file = await run({ target_directory: "a_file.txt" });
  expect(!file.ok && [file.error.code, file.error.message]).toEqual([ErrorCode.INVALID_INPUT, `Error: ${dir}/a_file.txt is a file, not a directory.`]);
  const legacy = await run({ target_directory: "a_file.txt" }, {}, "legacy-0.4.10");
  expect(!legacy.ok && legacy.error.message).toBe(`Error: ${dir}/a_file.txt is not a valid directory`);
  const outside = await run({ target_directory: "/" });
  expect(!outside.ok && outside.error.code).toBe(ErrorCode.PERMISSION_DENIED);
});

test("empty folders: current keeps the header line, legacy says no children found", async () => {
  expect(await run({ target_directory: "." }).then((r) => r.ok && r.promptText)).toBe(`- ${dir}/\n`);
  expect(await run({ target_directory: "." }, {}, "legacy-0.4.10").then((r) => r.ok && r.promptText)).toBe(`- ${dir}/\n  no children found`);
});

test("oversized siblings stay collapsed while small ones expand, in order and within budget", async () => {
  const spec: Record<string, string> = { "bbb_small/s1.rs": "", "ddd_small/s2.rs": "" };
  for (let i = 0; i < 50; i++) {
    spec[`aaa_big/f${i}.rs`] = "";
    spec[`ccc_big/g${i}.rs`] = "";
  }
  await files(spec);
  const { tree, truncated } = await withDir((root) => buildTree(root, true));
  const body = budgetExpand(tree, 300, truncated, "NOTICE");
  expect(body).toBe(
    "  - aaa_big/\n    [50 files in subtree: 50 *.rs]\n  - bbb_small/\n    - s1.rs\n  - ccc_big/\n    [50 files in subtree: 50 *.rs]\n  - ddd_small/\n    - s2.rs\n",
  );
  expect(Buffer.byteLength(body)).toBeLessThanOrEqual(300);
});

test("the walk cap keeps every depth-1 entry and appends the cutoff note", async () => {
  const spec: Record<string, string> = { "zzz/late.rs": "" };
  for (let i = 0; i < 30; i++) spec[`aaa/f${i}.rs`] = "";
  await files(spec);
  const { tree, truncated } = await withDir((root) => buildTree(root, true, undefined, 5));
  expect(truncated).toBe(true);
  const body = budgetExpand(tree, 10_000, truncated, "NOTICE");
  expect(body).toContain("  - zzz/\n");
  expect(body.endsWith("\nNote: there are more than 100000 items in the directory, so not all files may be shown.\n")).toBe(true);
});
