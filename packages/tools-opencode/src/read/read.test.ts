/**
 * `OpenCode:read` of a folder swapped right after it was opened and checked (#19, the fs-race
 * harness's "oc_read folder"): the listing comes from the folder that was checked, never from
 * whatever the path names by then. The swap is made at that exact moment by wrapping the
 * runtime's openConfined, so no timing is involved.
 */
import { jest } from "@jest/globals";
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "@grok-tools/runtime";
import * as actualFs from "@grok-tools/runtime/fs";
import type { OpenedFile } from "@grok-tools/runtime/fs";

/** Runs once after the next openConfined of a folder succeeds, before the tool goes on. */
let afterFolderOpen: ((opened: OpenedFile) => Promise<void>) | undefined;
jest.unstable_mockModule("@grok-tools/runtime/fs", () => ({
  ...actualFs,
  openConfined: async (...args: Parameters<typeof actualFs.openConfined>) => {
    const opened = await actualFs.openConfined(...args);
    const hook = afterFolderOpen;
    if (hook !== undefined && opened.stat.isDirectory()) {
      afterFolderOpen = undefined;
      await hook(opened);
    }
    return opened;
  },
}));
const { Session, ToolRegistry } = await import("@grok-tools/runtime/host");
const { default: openCode } = await import("../index.js");

let base: string;
let ws: string;
let outside: string;
let session: InstanceType<typeof Session>;
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "opencode-read-")));
  ws = path.join(base, "ws");
  outside = path.join(base, "outside");
  await mkdir(path.join(ws, "flip"), { recursive: true });
  await writeFile(path.join(ws, "flip", "inside.txt"), "inside\n");
  await mkdir(outside);
  await writeFile(path.join(outside, "secret-name.txt"), "secret\n");
  session = new Session({ registry: ToolRegistry.of([openCode]), workspace: ws, stateDir: path.join(base, "state") });
  const out = await session.finalize({ tools: [{ id: "OpenCode:read" }] });
  if (!out.ok) throw new Error(out.message);
});
afterEach(async () => {
  afterFolderOpen = undefined;
  await session.close();
  await rm(base, { recursive: true, force: true });
});

const read = (filePath: string) => session.execute({ toolName: "read", inputJson: JSON.stringify({ filePath }) });

test("a folder swapped for a link out after its check is listed as checked, and nothing outside is shown", async () => {
  afterFolderOpen = async () => {
    await rename(path.join(ws, "flip"), path.join(ws, "flip.old"));
    await symlink(outside, path.join(ws, "flip"));
  };
  const result = await read("flip");
  expect(afterFolderOpen).toBeUndefined();
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  expect(result.promptText).toContain("\ninside.txt\n");
  expect(result.promptText).not.toContain("secret");
});

test("a folder removed after its check is empty or not found (not an internal error)", async () => {
  afterFolderOpen = async () => {
    await rename(path.join(ws, "flip"), path.join(ws, "flip.old"));
    await rm(path.join(ws, "flip.old"), { recursive: true });
  };
  const result = await read("flip");
  expect(afterFolderOpen).toBeUndefined();
  // Listing a removed folder through its descriptor finds it empty (tmpfs) or gone (ENOENT, other file systems).
  if (result.ok) expect(result.promptText).toContain("(0 entries)");
  else expect(result.error.code).toBe(ErrorCode.FILE_NOT_FOUND);
});
