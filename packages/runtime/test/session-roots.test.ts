/**
 * A session's roots (the folders its file tools may reach): the workspace and its own folder under
 * the state dir, which follows the session's id when finalize adopts another one. The list is made
 * once per id (issue #18), so a read after the id changed must see the new folder and not the old.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { ErrorCode } from "../src/index.js";
import type { Session } from "../src/host.js";
import { readFileConfined, readFileConfinedNow } from "../src/fs.js";
import { makeSession, tempDirs } from "./fixtures.js";

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let session: Session | undefined;
beforeEach(async () => {
  dirs = await tempDirs();
});
afterEach(async () => {
  await session?.close();
  session = undefined;
  await dirs.cleanup();
});

/** A session whose state dir lies outside its workspace, so that its own folder is a root of its own. */
async function openApart(id: string): Promise<Session> {
  const workspace = path.join(dirs.workspace, "ws");
  await mkdir(workspace, { recursive: true });
  session = makeSession({ workspace, stateDir: dirs.stateDir }, { id });
  return session;
}

/** A small file at `file`, made with its folders. */
async function put(file: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, "hello\n");
  return file;
}

describe("session roots", () => {
  it("are the same frozen list until the id changes", async () => {
    const s = await openApart("first");
    const roots = s.roots;
    expect(s.roots).toBe(roots);
    expect(Object.isFrozen(roots)).toBe(true);
    expect(roots).toEqual([path.join(dirs.workspace, "ws"), path.join(dirs.stateDir, "first")]);
  });

  it("follow the id finalize adopts: the new folder is readable, the old one no longer", async () => {
    const s = await openApart("first");
    const before = s.roots;
    await s.finalize({ tools: [{ id: "GrokBuild:read_file" }], sessionId: "adopted" });
    expect(s.roots).not.toBe(before);
    expect(s.roots).toEqual([path.join(dirs.workspace, "ws"), path.join(dirs.stateDir, "adopted")]);

    // Both ways a confined read checks the roots: at once (the small-file path, which keeps the
    // roots between calls) and through the thread pool.
    const inNew = await put(path.join(dirs.stateDir, "adopted", "note.txt"));
    expect(readFileConfinedNow(s, inNew)?.bytes.toString()).toBe("hello\n");
    expect((await readFileConfined(s, inNew)).bytes.toString()).toBe("hello\n");
    const inOld = await put(path.join(dirs.stateDir, "first", "note.txt"));
    expect(readFileConfinedNow(s, inOld)).toBeUndefined();
    await expect(readFileConfined(s, inOld)).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
  });

  it("a scope's list that can change is read again at each read", async () => {
    const inside = await put(path.join(dirs.workspace, "ws", "note.txt"));
    const roots = [path.join(dirs.workspace, "ws")];
    const scope = { fsScope: "workspace" as const, roots };
    expect(readFileConfinedNow(scope, inside)?.bytes.toString()).toBe("hello\n");
    roots[0] = dirs.stateDir;
    expect(readFileConfinedNow(scope, inside)).toBeUndefined();
    await expect(readFileConfined(scope, inside)).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
  });
});
