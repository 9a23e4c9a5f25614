/**
 * OpenCode behaviour beyond single golden calls: the read tracker shared with edit (an edit refuses a
 * file changed on disk since it was read, and our own writes need no re-read), the shared
 * `grok_build.Todo` state, and path confinement of glob and grep.
 */
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "@grok-tools/runtime";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import openCode from "../src/index.js";

let root: string;
let session: Session;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "opencode-")));
  session = new Session({ registry: ToolRegistry.of([openCode]), workspace: root, stateDir: path.join(root, ".state") });
  const out = await session.finalize({ tools: ["read", "edit", "write", "glob", "grep", "todowrite"].map((t) => ({ id: `OpenCode:${t}` })) });
  if (!out.ok) throw new Error(out.message);
});
afterEach(async () => {
  await session.close();
  await rm(root, { recursive: true, force: true });
});

const call = (toolName: string, input: unknown) => session.execute({ toolName, inputJson: JSON.stringify(input) });

test("an edit refuses a file changed on disk since it was read, and leaves it alone", async () => {
  await writeFile(path.join(root, "a.txt"), "one\n");
  expect((await call("read", { filePath: "a.txt" })).ok).toBe(true);
  await writeFile(path.join(root, "a.txt"), "one changed\n");
  const edit = await call("edit", { filePath: "a.txt", oldString: "one", newString: "two" });
  expect(edit.ok).toBe(false);
  if (!edit.ok) expect(edit.error.message).toBe("File has been modified since it was last read: a.txt. Read it again before editing it.");
  const reread = await call("read", { filePath: "a.txt" });
  expect(reread.ok && reread.promptText).toContain("1: one changed");
});

test("our own writes need no re-read: write, then edit twice", async () => {
  expect((await call("write", { file_path: "b.txt", content: "x = 1\n" })).ok).toBe(true);
  expect((await call("edit", { filePath: "b.txt", oldString: "x = 1", newString: "x = 2" })).ok).toBe(true);
  const second = await call("edit", { filePath: "b.txt", oldString: "x = 2", newString: "x = 3" });
  expect(second.ok).toBe(true);
});

test("todowrite keeps the list in the shared grok_build.Todo state", async () => {
  await call("todowrite", { todos: [{ content: "a", status: "completed", priority: "low" }] });
  expect(await session.snapshotState()).toMatchObject({
    state: { "grok_build.Todo": { todos: { "1": { content: "a", status: "completed", priority: "low" } } } },
  });
});

test("glob and grep refuse a folder outside the workspace", async () => {
  for (const [tool, input] of [
    ["glob", { pattern: "*", path: "/etc" }],
    ["grep", { pattern: "root", path: "/etc" }],
  ] as const) {
    const result = await call(tool, input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/^Permission denied: \/etc is outside the folders this session may access/);
  }
});

test("grep reports a ripgrep that cannot start as EXECUTION_FAILED, and a cancelled search as CANCELLED", async () => {
  await writeFile(path.join(root, "a.txt"), "hello\n");
  const saved = process.env.RG_BIN_PATH;
  process.env.RG_BIN_PATH = path.join(root, "no-such-rg");
  try {
    const missing = await call("grep", { pattern: "hello" });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error).toMatchObject({ code: ErrorCode.EXECUTION_FAILED, message: expect.stringMatching(/^Error spawning rg: /) });
  } finally {
    if (saved === undefined) delete process.env.RG_BIN_PATH;
    else process.env.RG_BIN_PATH = saved;
  }
  // Cancelled before it starts: the runtime never starts the search (issue #21: nothing ran, so a retry may run it).
  const controller = new AbortController();
  controller.abort();
  const cancelled = await session.execute({ toolName: "grep", inputJson: JSON.stringify({ pattern: "hello" }), signal: controller.signal });
  expect(cancelled.ok).toBe(false);
  if (!cancelled.ok) expect(cancelled.error).toMatchObject({ code: ErrorCode.CANCELLED, message: "Tool call was cancelled" });
});
