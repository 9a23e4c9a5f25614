/**
 * Codex:list_dir: the reference's tool.rs tests (depth, paging, markers, errors) and the byte-order sort.
 */
import { afterEach, describe, expect, test } from "@jest/globals";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "@grok-tools/runtime";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { errorCodeName } from "@grok-tools/runtime/helpers";
import { codex } from "../namespace.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup() {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "codex-ls-")));
  const session = new Session({ registry: ToolRegistry.of([codex]), workspace: dir, stateDir: path.join(os.tmpdir(), `codex-ls-state-${path.basename(dir)}`) });
  cleanups.push(async () => {
    await session.close();
    await rm(dir, { recursive: true, force: true });
  });
  await session.finalize({ tools: [{ id: "Codex:list_dir" }] });
  const call = (input: Record<string, unknown>) => session.execute({ toolName: "list_dir", inputJson: JSON.stringify(input) });
  const text = async (input: Record<string, unknown>): Promise<string> => {
    const result = await call(input);
    if (!result.ok) throw new Error(result.error.message);
    return result.promptText;
  };
  return { dir, call, text };
}

describe("list_dir", () => {
  test("entries, markers and output_json", async () => {
    const { dir, call } = await setup();
    await writeFile(path.join(dir, "file.txt"), "content");
    await mkdir(path.join(dir, "subdir"));
    await writeFile(path.join(dir, "subdir", "inner.txt"), "");
    await mkdir(path.join(dir, "real_dir"));
    await symlink(path.join(dir, "real_dir"), path.join(dir, "link"));
    const result = await call({ dir_path: dir });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.promptText).toBe(`Absolute path: ${dir}\nfile.txt\nlink@\nreal_dir/\nsubdir/\n  inner.txt`);
    expect(JSON.parse(result.outputJson)).toEqual({ type: "ListDir", Content: { content: result.promptText, absolute_root_path: dir } });
  });

  test("depth limits the walk", async () => {
    const { dir, text } = await setup();
    await mkdir(path.join(dir, "a", "b", "c"), { recursive: true });
    await writeFile(path.join(dir, "a", "b", "c", "deep.txt"), "");
    expect(await text({ dir_path: dir, depth: 1 })).toBe(`Absolute path: ${dir}\na/`);
    expect(await text({ dir_path: dir, depth: 2 })).toBe(`Absolute path: ${dir}\na/\n  b/`);
    expect(await text({ dir_path: dir, depth: 4 })).toBe(`Absolute path: ${dir}\na/\n  b/\n    c/\n      deep.txt`);
  });

  test("the global sort can put a child after a later sibling (errata 13)", async () => {
    const { dir, text } = await setup();
    await mkdir(path.join(dir, "a"));
    await writeFile(path.join(dir, "a", "x.txt"), "");
    await writeFile(path.join(dir, "a.txt"), "");
    await writeFile(path.join(dir, "b"), "");
    expect(await text({ dir_path: dir })).toBe(`Absolute path: ${dir}\na/\na.txt\n  x.txt\nb`);
  });

  test("pages in sorted order, with the overflow notice", async () => {
    const { dir, text } = await setup();
    for (const name of ["c.txt", "a.txt", "b.txt", "Z.txt", ".hidden"]) await writeFile(path.join(dir, name), "");
    expect(await text({ dir_path: dir, limit: 2 })).toBe(`Absolute path: ${dir}\n.hidden\nZ.txt\nMore than 2 entries found`);
    expect(await text({ dir_path: dir, offset: 4, limit: 2 })).toBe(`Absolute path: ${dir}\nb.txt\nc.txt`);
    expect(await text({ dir_path: dir, limit: 1e9 })).toBe(`Absolute path: ${dir}\n.hidden\nZ.txt\na.txt\nb.txt\nc.txt`);
  });

  test("an empty folder", async () => {
    const { dir, text } = await setup();
    expect(await text({ dir_path: dir, offset: 5 })).toBe(`Absolute path: ${dir}`);
  });

  test("sorts by UTF-8 bytes like Rust", async () => {
    const { dir, text } = await setup();
    await writeFile(path.join(dir, "\u{1F600}.txt"), "");
    await writeFile(path.join(dir, "\uFF21.txt"), "");
    expect(await text({ dir_path: dir })).toBe(`Absolute path: ${dir}\n\uFF21.txt\n\u{1F600}.txt`);
  });

  test.each([
    [{ offset: 0 }, "INVALID_INPUT", "offset must be a 1-indexed entry number"],
    [{ limit: 0 }, "INVALID_INPUT", "limit must be greater than zero"],
    [{ depth: 0 }, "INVALID_INPUT", "depth must be greater than zero"],
    [{ offset: 3 }, "INVALID_INPUT", "offset exceeds directory entry count"],
  ])("%j fails with %s", async (extra, code, message) => {
    const { dir, call } = await setup();
    await writeFile(path.join(dir, "only.txt"), "");
    const result = await call({ dir_path: dir, ...extra });
    if (result.ok) throw new Error("expected an error");
    expect([errorCodeName(result.error.code), result.error.message]).toEqual([code, message]);
  });

  test("relative, missing, a file, outside", async () => {
    const { dir, call } = await setup();
    await writeFile(path.join(dir, "f.txt"), "");
    const messageOf = async (input: Record<string, unknown>) => {
      const result = await call(input);
      return result.ok ? undefined : [result.error.code, result.error.message];
    };
    expect(await messageOf({ dir_path: "rel" })).toEqual([ErrorCode.INVALID_INPUT, "dir_path must be an absolute path"]);
    expect(await messageOf({ dir_path: path.join(dir, "missing") })).toEqual([
      ErrorCode.FILE_NOT_FOUND,
      "Failed to read directory: No such file or directory (os error 2)",
    ]);
    expect(await messageOf({ dir_path: path.join(dir, "f.txt") })).toEqual([
      ErrorCode.INVALID_INPUT,
      "Failed to read directory: Not a directory (os error 20)",
    ]);
    expect((await messageOf({ dir_path: "/" }))?.[0]).toBe(ErrorCode.PERMISSION_DENIED);
  });
});
