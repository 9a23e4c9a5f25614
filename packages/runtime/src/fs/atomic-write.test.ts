import { fstatSync, readFileSync, readdirSync, readlinkSync } from "node:fs";
import { chmod, link, mkdir, mkdtemp, open, readFile, readdir, realpath, rm, stat, writeFile } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "../errors/error-code.js";
import { ToolError } from "../errors/tool-error.js";
import { ResourceStore } from "../session/resource-store.js";
import { writeFileConfined, writeFilesConfined } from "./atomic-write.js";
import type { FsScope } from "./confinement.js";
import { readTracker } from "./read-tracker.js";
import { TempJournal } from "./temp-journal.js";

let base: string;
let ws: string;
let scope: FsScope;
let journal: TempJournal;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "atomic-write-test-")));
  ws = path.join(base, "ws");
  await mkdir(path.join(ws, "a"), { recursive: true });
  await mkdir(path.join(ws, "b"));
  await mkdir(path.join(base, "outside"));
  journal = new TempJournal(path.join(base, "state"));
  scope = { roots: [ws], fsScope: "workspace", tempJournal: journal };
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A folder fsync as seen from inside `FileHandle.prototype.sync`: the folder and what its files held then. */
interface FolderSync {
  folder: string;
  files: Record<string, string>;
}

/**
 * Runs `fn` while every fsync of a folder is recorded with the contents of the folder's files at
 * that moment, so that a test can tell which renames the fsync made durable. Files are not recorded.
 */
async function recordingFolderSyncs<T>(fn: () => Promise<T>): Promise<{ result: T; syncs: FolderSync[] }> {
  const probe = await open(path.join(ws, "a"), "r");
  const prototype = Object.getPrototypeOf(probe) as { sync: FileHandle["sync"] };
  await probe.close();
  const original = prototype.sync;
  const syncs: FolderSync[] = [];
  prototype.sync = function (this: FileHandle) {
    if (fstatSync(this.fd).isDirectory()) {
      const folder = readlinkSync(`/proc/self/fd/${this.fd}`);
      const files: Record<string, string> = {};
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        if (entry.isFile()) files[entry.name] = readFileSync(path.join(folder, entry.name), "utf8");
      }
      syncs.push({ folder, files });
    }
    return original.call(this);
  };
  try {
    return { result: await fn(), syncs };
  } finally {
    prototype.sync = original;
  }
}

describe("writeFilesConfined", () => {
  test("writes every file and fsyncs each folder once, after all of that folder's renames", async () => {
    await writeFile(path.join(ws, "a", "one.txt"), "old one");
    await writeFile(path.join(ws, "a", "two.txt"), "old two");
    await writeFile(path.join(ws, "b", "four.txt"), "old four");
    await chmod(path.join(ws, "a", "two.txt"), 0o751);
    const files = [
      { absPath: path.join(ws, "a", "one.txt"), content: "new one" },
      { absPath: path.join(ws, "a", "two.txt"), content: "new two" },
      { absPath: path.join(ws, "a", "three.txt"), content: Buffer.from("new three") },
      { absPath: path.join(ws, "b", "four.txt"), content: "new four" },
    ];
    const { result, syncs } = await recordingFolderSyncs(() => writeFilesConfined(scope, files));

    expect(result.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "fulfilled"]);
    expect(result.map((r) => (r.status === "fulfilled" ? r.value : undefined))).toEqual([
      { realPath: path.join(ws, "a", "one.txt"), created: false },
      { realPath: path.join(ws, "a", "two.txt"), created: false },
      { realPath: path.join(ws, "a", "three.txt"), created: true },
      { realPath: path.join(ws, "b", "four.txt"), created: false },
    ]);
    for (const file of files) expect(await readFile(file.absPath, "utf8")).toBe(String(file.content));
    expect((await stat(path.join(ws, "a", "two.txt"))).mode & 0o777).toBe(0o751);

    const byFolder = new Map<string, FolderSync[]>();
    for (const sync of syncs) byFolder.set(sync.folder, [...(byFolder.get(sync.folder) ?? []), sync]);
    expect([...byFolder.keys()].sort()).toEqual([path.join(ws, "a"), path.join(ws, "b")]);
    expect(byFolder.get(path.join(ws, "a"))).toEqual([
      { folder: path.join(ws, "a"), files: { "one.txt": "new one", "two.txt": "new two", "three.txt": "new three" } },
    ]);
    expect(byFolder.get(path.join(ws, "b"))).toEqual([{ folder: path.join(ws, "b"), files: { "four.txt": "new four" } }]);
    // No temporary left, in the folders or in the journal.
    expect((await readdir(path.join(ws, "a"))).sort()).toEqual(["one.txt", "three.txt", "two.txt"]);
    expect(await readdir(journal.dir)).toEqual([]);
  });

  test("journals the batch's temporaries in one entry while they exist, and removes it", async () => {
    const probe = await open(path.join(ws, "a"), "r");
    const prototype = Object.getPrototypeOf(probe) as { sync: FileHandle["sync"] };
    await probe.close();
    const original = prototype.sync;
    const seen: Array<{ synced: string; entries: unknown[] }> = [];
    prototype.sync = function (this: FileHandle) {
      if (!fstatSync(this.fd).isDirectory()) {
        const entries = readdirSync(journal.dir).map((name) => JSON.parse(readFileSync(path.join(journal.dir, name), "utf8")) as unknown);
        seen.push({ synced: readlinkSync(`/proc/self/fd/${this.fd}`), entries });
      }
      return original.call(this);
    };
    try {
      await writeFilesConfined(scope, [
        { absPath: path.join(ws, "a", "one.txt"), content: "1" },
        { absPath: path.join(ws, "b", "two.txt"), content: "2" },
      ]);
    } finally {
      prototype.sync = original;
    }
    expect(seen).toHaveLength(2);
    for (const { synced, entries } of seen) {
      expect(entries).toHaveLength(1);
      const temps = (entries[0] as { temps: string[] }).temps;
      expect(temps.map((t) => path.dirname(t)).sort()).toEqual([path.join(ws, "a"), path.join(ws, "b")]);
      expect(temps).toContain(synced);
    }
    expect(await readdir(journal.dir)).toEqual([]);
  });

  test("a restart removes the temporaries of a batch whose writer was killed", async () => {
    const dead = 2 ** 22 + 12_345;
    const temps = [path.join(ws, "a", `.one.txt.${dead}.0123456789ab.tmp`), path.join(ws, "b", `.two.txt.${dead}.ba9876543210.tmp`)];
    for (const temp of temps) await writeFile(temp, "half");
    await mkdir(journal.dir, { recursive: true });
    await writeFile(path.join(journal.dir, `${dead}.00112233445566aa.json`), JSON.stringify({ temps, pid: dead }));
    const report = await journal.recover();
    expect(report.removed.sort()).toEqual([...temps].sort());
    expect(await readdir(path.join(ws, "a"))).toEqual([]);
    expect(await readdir(path.join(ws, "b"))).toEqual([]);
    expect(await readdir(journal.dir)).toEqual([]);
  });

  test("keeps an existing file's mode exactly, also bits the umask filters from a new file", async () => {
    await writeFile(path.join(ws, "a", "shared.txt"), "old");
    await chmod(path.join(ws, "a", "shared.txt"), 0o666);
    const previous = process.umask(0o022);
    try {
      await writeFilesConfined(scope, [{ absPath: path.join(ws, "a", "shared.txt"), content: "new" }]);
      await writeFileConfined(scope, path.join(ws, "a", "shared.txt"), "newer");
    } finally {
      process.umask(previous);
    }
    expect((await stat(path.join(ws, "a", "shared.txt"))).mode & 0o777).toBe(0o666);
    expect(await readFile(path.join(ws, "a", "shared.txt"), "utf8")).toBe("newer");
  });

  test("a single write still fsyncs its folder", async () => {
    const { syncs } = await recordingFolderSyncs(() => writeFileConfined(scope, path.join(ws, "b", "f.txt"), "x"));
    expect(syncs).toEqual([{ folder: path.join(ws, "b"), files: { "f.txt": "x" } }]);
  });

  test("reports each file's outcome: a refused file fails alone, the others are written and synced", async () => {
    await writeFile(path.join(base, "outside", "secret.txt"), "SENTINEL");
    await link(path.join(base, "outside", "secret.txt"), path.join(ws, "a", "hard.txt"));
    await writeFile(path.join(ws, "a", "ok.txt"), "old");
    const { result, syncs } = await recordingFolderSyncs(() =>
      writeFilesConfined(scope, [
        { absPath: path.join(ws, "a", "ok.txt"), content: "new" },
        { absPath: path.join(ws, "a", "hard.txt"), content: "x" },
        { absPath: path.join(base, "outside", "new.txt"), content: "x", displayPath: "outside/new.txt" },
      ]),
    );
    expect(result[0]).toEqual({ status: "fulfilled", value: { realPath: path.join(ws, "a", "ok.txt"), created: false } });
    for (const failed of result.slice(1)) {
      expect(failed.status).toBe("rejected");
      const reason = (failed as PromiseRejectedResult).reason as unknown;
      expect(ToolError.is(reason) && reason.code).toBe(ErrorCode.PERMISSION_DENIED);
    }
    expect(await readFile(path.join(ws, "a", "ok.txt"), "utf8")).toBe("new");
    expect(await readFile(path.join(base, "outside", "secret.txt"), "utf8")).toBe("SENTINEL");
    await expect(stat(path.join(base, "outside", "new.txt"))).rejects.toThrow();
    expect(syncs.map((s) => s.folder)).toEqual([path.join(ws, "a")]);
  });

  test("records the written files in the read tracker", async () => {
    const tracker = readTracker({ resources: new ResourceStore() });
    const [outcome] = await writeFilesConfined(scope, [{ absPath: path.join(ws, "a", "t.txt"), content: "abc" }], { tracker });
    const realPath = (outcome as PromiseFulfilledResult<{ realPath: string }>).value.realPath;
    expect(tracker.get(realPath)?.size).toBe(3);
    expect(() => tracker.checkBeforeEdit(realPath, Buffer.from("abc"))).not.toThrow();
  });

  test("an empty batch writes nothing", async () => {
    const { result, syncs } = await recordingFolderSyncs(() => writeFilesConfined(scope, []));
    expect(result).toEqual([]);
    expect(syncs).toEqual([]);
  });
});
