import { execFileSync } from "node:child_process";
import { mkdtemp, mkdir, readFile, realpath, rm, stat, symlink, writeFile, unlink, link, chmod } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "../errors/error-code.js";
import { ToolError } from "../errors/tool-error.js";
import { ResourceStore } from "../session/resource-store.js";
import { resolveModelPath, sanitizeModelPathArg } from "./model-path.js";
import { isWithinRoot, resolveForCreate, type FsScope } from "./confinement.js";
import { errnoCode } from "./errno.js";
import { openConfined, readFileConfined, readFileConfinedNow } from "./safe-read.js";
import {
  FAST_STEPS_TO_FORGIVE,
  FIRST_COOL_DOWN_MS,
  MAX_COOL_DOWN_MS,
  SLOW_SYNC_MS,
  SYNC_READ_MAX_BYTES,
  nextCoolDownMs,
  setSyncFastPath,
  syncFastPathEnabled,
  timedSync,
} from "./sync-fast-path.js";
import { writeFileConfined } from "./atomic-write.js";
import { decodeText, encodeText } from "./text-format.js";
import { PathLocks } from "./path-lock.js";
import { FILE_READ_TRACKER, readTracker } from "./read-tracker.js";

let base: string;
let ws: string;
let outside: string;
let scope: FsScope;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "fs-test-")));
  ws = path.join(base, "ws");
  outside = path.join(base, "outside");
  await mkdir(ws);
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), "SENTINEL");
  await writeFile(path.join(ws, "a.txt"), "hello\n");
  scope = { roots: [ws], fsScope: "workspace" };
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function codeOf(promise: Promise<unknown>): Promise<string | number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return ToolError.is(error) ? error.code : errnoCode(error);
  }
}

describe("resolveModelPath", () => {
  test("cleans quotes, whitespace and literal escapes of quote-wrapped args", () => {
    expect(sanitizeModelPathArg('  "/x/y.ts\\n"  ')).toBe("/x/y.ts");
    expect(sanitizeModelPathArg("'/x/y.ts\\r\\t'")).toBe("/x/y.ts");
    expect(sanitizeModelPathArg("/x/dir\\n")).toBe("/x/dir\\n");
    expect(sanitizeModelPathArg('"/x/y')).toBe("/x/y");
  });
  test("joins relative paths, expands ~ and repairs a dropped leading slash", () => {
    expect(resolveModelPath("/work/ws", "src/a.ts")).toBe("/work/ws/src/a.ts");
    expect(resolveModelPath("/work/ws", "/etc/hosts")).toBe("/etc/hosts");
    expect(resolveModelPath("/work/ws", "work/ws/src/a.ts")).toBe("/work/ws/src/a.ts");
    expect(resolveModelPath("/work/ws", "work/wsx/a.ts")).toBe("/work/ws/work/wsx/a.ts");
    expect(resolveModelPath("/work/ws", "~/notes.md", "/home/u")).toBe("/home/u/notes.md");
    expect(resolveModelPath("/work/ws", "~", "/home/u")).toBe("/home/u");
    expect(resolveModelPath("/work/ws", "a/link/../b")).toBe("/work/ws/a/link/../b");
  });

  test("repairs a dropped leading slash by components, as Rust's Path::components sees them", () => {
    expect(resolveModelPath("/work/ws", "./work//ws/./src/a.ts")).toBe("/work/ws/src/a.ts");
    expect(resolveModelPath("/work/./ws/", "work/ws")).toBe("/work/./ws/");
    expect(resolveModelPath("/work/ws", "work")).toBe("/work/ws/work");
    expect(resolveModelPath("/work/ws", "./")).toBe("/work/ws/./");
    // Every relative path is inside the root folder: its components are kept, empty and `.` ones dropped.
    expect(resolveModelPath("/", "a//./b")).toBe("/a/b");
    expect(resolveModelPath("/", ".")).toBe("/");
  });
});

describe("confinement", () => {
  test("whole path components: /ws does not contain /ws2", () => {
    expect(isWithinRoot("/w/ws", "/w/ws")).toBe(true);
    expect(isWithinRoot("/w/ws/a", "/w/ws")).toBe(true);
    expect(isWithinRoot("/w/ws2/a", "/w/ws")).toBe(false);
    expect(isWithinRoot("/anything", "/")).toBe(true);
  });
  test("reads inside the root; refuses absolute paths outside", async () => {
    const read = await readFileConfined(scope, path.join(ws, "a.txt"));
    expect(read.bytes.toString()).toBe("hello\n");
    expect(read.realPath).toBe(path.join(ws, "a.txt"));
    const error = await readFileConfined(scope, path.join(outside, "secret.txt")).catch((e: unknown) => e);
    expect(ToolError.is(error) && error.code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((error as ToolError).message).toContain("is outside the folders this session may access");
    expect((error as ToolError).suggestion).toBeDefined();
  });
  test("refuses a symlink pointing outside", async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(ws, "link.txt"));
    expect(await codeOf(readFileConfined(scope, path.join(ws, "link.txt")))).toBe(ErrorCode.PERMISSION_DENIED);
  });
  test("refuses `..` after a symlinked folder (the kernel's resolution)", async () => {
    await mkdir(path.join(outside, "deep"));
    await symlink(path.join(outside, "deep"), path.join(ws, "dirlink"));
    expect(await codeOf(readFileConfined(scope, `${ws}/dirlink/../secret.txt`))).toBe(ErrorCode.PERMISSION_DENIED);
  });
  test("refuses a sibling-prefix folder", async () => {
    await mkdir(`${ws}2`);
    await writeFile(`${ws}2/x.txt`, "x");
    expect(await codeOf(readFileConfined(scope, `${ws}2/x.txt`))).toBe(ErrorCode.PERMISSION_DENIED);
    expect(await codeOf(readFileConfined(scope, `${ws}/../ws2/x.txt`))).toBe(ErrorCode.PERMISSION_DENIED);
  });
  test("follows an in-root symlink, and a root given through a symlink", async () => {
    await symlink(path.join(ws, "a.txt"), path.join(ws, "alias.txt"));
    expect((await readFileConfined(scope, path.join(ws, "alias.txt"))).realPath).toBe(path.join(ws, "a.txt"));
    await symlink(ws, path.join(base, "wslink"));
    const viaLink: FsScope = { roots: [path.join(base, "wslink")], fsScope: "workspace" };
    expect((await readFileConfined(viaLink, path.join(base, "wslink", "a.txt"))).bytes.toString()).toBe("hello\n");
    expect((await readFileConfined(viaLink, path.join(ws, "a.txt"))).bytes.toString()).toBe("hello\n");
  });
  test("fsScope any lifts confinement", async () => {
    const any: FsScope = { roots: [], fsScope: "any" };
    expect((await readFileConfined(any, path.join(outside, "secret.txt"))).bytes.toString()).toBe("SENTINEL");
  });
  test("a file swapped for a symlink between check and use is refused", async () => {
    const target = path.join(ws, "swap.txt");
    await writeFile(target, "inside");
    // The check (as a naive tool would do it) passes on the regular file ...
    expect(isWithinRoot(await realpath(target), ws)).toBe(true);
    // ... then the file is swapped before the open: the check on the opened descriptor catches it.
    await unlink(target);
    await symlink(path.join(outside, "secret.txt"), target);
    const error = await readFileConfined(scope, target).catch((e: unknown) => e);
    expect(ToolError.is(error) && error.code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(String((error as Error).message)).not.toContain("SENTINEL");
  });
});

test("a path flipping between a file and an outside symlink never leaks the outside content", async () => {
  const target = path.join(ws, "flip.txt");
  const { rename } = await import("node:fs/promises");
  let running = true;
  const flipper = (async () => {
    let i = 0;
    while (running) {
      const temp = path.join(ws, `.flip${i++}`);
      if (i % 2 === 0) await writeFile(temp, "inside");
      else await symlink(path.join(outside, "secret.txt"), temp);
      await rename(temp, target);
    }
  })();
  let leaks = 0;
  let reads = 0;
  const unexpected: string[] = [];
  for (let i = 0; i < 300; i++) {
    // Let the flipper's I/O run: a small read completes synchronously (sync-fast-path.ts), and a
    // loop of them would otherwise never reach the event loop's I/O phase.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      const read = await readFileConfined(scope, target);
      reads++;
      if (read.bytes.toString().includes("SENTINEL")) leaks++;
    } catch (error) {
      if (!(ToolError.is(error) && error.code === ErrorCode.PERMISSION_DENIED) && errnoCode(error) !== "ENOENT") unexpected.push(String(error));
    }
  }
  running = false;
  await flipper;
  expect({ leaks, unexpected }).toEqual({ leaks: 0, unexpected: [] });
  expect(reads).toBeGreaterThan(0);
});

describe("safe reader", () => {
  test("refuses a FIFO without hanging", async () => {
    const fifo = path.join(ws, "pipe");
    execFileSync("mkfifo", [fifo]);
    const started = Date.now();
    const error = await readFileConfined(scope, fifo).catch((e: unknown) => e);
    expect(ToolError.is(error) && error.code).toBe(ErrorCode.INVALID_INPUT);
    expect((error as Error).message).toContain("FIFO");
    expect(Date.now() - started).toBeLessThan(2000);
  });
  test("refuses a character device", async () => {
    const any: FsScope = { roots: [], fsScope: "any" };
    expect(await codeOf(readFileConfined(any, "/dev/null"))).toBe(ErrorCode.INVALID_INPUT);
  });
  test("errno errors pass through; a directory is EISDIR", async () => {
    expect(await codeOf(readFileConfined(scope, path.join(ws, "missing.txt")))).toBe("ENOENT");
    expect(await codeOf(readFileConfined(scope, ws))).toBe("EISDIR");
    const opened = await openConfined(scope, ws);
    expect(opened.stat.isDirectory()).toBe(true);
    await opened.handle.close();
  });
  test("reads whole files of every size, and pseudo-files whose stat size is not their length", async () => {
    for (const size of [0, 1, 7, 4095, 4096, 65_536, 65_537, 1024 * 1024 + 3]) {
      const content = Buffer.alloc(size, 97);
      await writeFile(path.join(ws, "sized.txt"), content);
      const read = await readFileConfined(scope, path.join(ws, "sized.txt"));
      expect(read.bytes.equals(content)).toBe(true);
      expect(read.truncated).toBe(false);
    }
    const any: FsScope = { roots: [], fsScope: "any" };
    // /proc files stat as size 0 and still have content.
    expect((await readFileConfined(any, "/proc/self/status")).bytes.toString()).toContain("Pid:");
  });
  test("the synchronous fast path and the thread-pool path answer alike", async () => {
    await writeFile(path.join(ws, "big.txt"), "y".repeat(300 * 1024));
    await writeFile(path.join(ws, "mid.txt"), "z".repeat(5000));
    await symlink(path.join(outside, "secret.txt"), path.join(ws, "out.txt"));
    execFileSync("mkfifo", [path.join(ws, "pipe")]);
    const outcome = async () => {
      const results: unknown[] = [];
      for (const [name, cap] of [["a.txt"], ["big.txt"], ["mid.txt", 1000], ["big.txt", 1000], ["out.txt"], ["pipe"], ["missing.txt"], ["."]] as const) {
        try {
          const read = await readFileConfined(scope, path.join(ws, name), cap === undefined ? {} : { maxBytes: cap });
          results.push({ realPath: read.realPath, truncated: read.truncated, bytes: read.bytes.toString("base64").slice(0, 64), length: read.bytes.length });
        } catch (error) {
          results.push({ code: ToolError.is(error) ? error.code : errnoCode(error), message: (error as Error).message });
        }
      }
      return results;
    };
    try {
      const fast = await outcome();
      setSyncFastPath(false);
      expect(await outcome()).toEqual(fast);
      expect(fast[0]).toMatchObject({ realPath: path.join(ws, "a.txt"), truncated: false });
      expect(fast[2]).toMatchObject({ truncated: true, length: 1000 });
      expect(fast[3]).toMatchObject({ truncated: true, length: 1000 });
      expect(fast[4]).toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
    } finally {
      setSyncFastPath(true);
    }
  });
  const slowStep = () =>
    timedSync(() => {
      const until = performance.now() + SLOW_SYNC_MS + 5;
      while (performance.now() < until);
    });
  test("a slow synchronous step turns the fast path off for a cool-down that doubles, then it is tried again", async () => {
    try {
      timedSync(() => undefined);
      expect(syncFastPathEnabled()).toBe(true);
      expect(nextCoolDownMs()).toBe(FIRST_COOL_DOWN_MS);
      slowStep();
      expect(syncFastPathEnabled()).toBe(false);
      expect(nextCoolDownMs()).toBe(2 * FIRST_COOL_DOWN_MS);
      await new Promise((resolve) => setTimeout(resolve, FIRST_COOL_DOWN_MS + 50));
      expect(syncFastPathEnabled()).toBe(true);
      // Slow again: off again, for twice as long.
      slowStep();
      expect(syncFastPathEnabled()).toBe(false);
      expect(nextCoolDownMs()).toBe(4 * FIRST_COOL_DOWN_MS);
      await new Promise((resolve) => setTimeout(resolve, FIRST_COOL_DOWN_MS + 50));
      expect(syncFastPathEnabled()).toBe(false);
    } finally {
      setSyncFastPath(true);
    }
  });
  test("a run of fast steps puts the cool-down back at its start; it never exceeds the maximum", () => {
    try {
      for (let i = 0; i < 12; i++) slowStep();
      expect(nextCoolDownMs()).toBe(MAX_COOL_DOWN_MS);
      for (let i = 0; i < FAST_STEPS_TO_FORGIVE - 1; i++) timedSync(() => undefined);
      expect(nextCoolDownMs()).toBe(MAX_COOL_DOWN_MS);
      timedSync(() => undefined);
      expect(nextCoolDownMs()).toBe(FIRST_COOL_DOWN_MS);
      expect(syncFastPathEnabled()).toBe(false); // the cool-down already started still runs
    } finally {
      setSyncFastPath(true);
    }
    expect(syncFastPathEnabled()).toBe(true);
  });
  test("readFileConfinedNow reads a small file at once, as readFileConfined would, or leaves it to it", async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(ws, "out-link"));
    await writeFile(path.join(ws, "large.txt"), "x".repeat(SYNC_READ_MAX_BYTES + 1));
    await mkdir(path.join(ws, "dir"));
    try {
      setSyncFastPath(true);
      const now = readFileConfinedNow(scope, path.join(ws, "a.txt"));
      const usual = await readFileConfined(scope, path.join(ws, "a.txt"));
      expect(now).toMatchObject({ realPath: usual.realPath, truncated: false });
      expect(now!.bytes.toString()).toBe("hello\n");
      expect(now!.stat.ino).toBe(usual.stat.ino);
      // Every refusal or failure is left to the usual read, which words it: nothing is thrown here.
      for (const name of ["out-link", "missing.txt", "dir", "large.txt"]) {
        setSyncFastPath(true);
        expect(readFileConfinedNow(scope, path.join(ws, name))).toBeUndefined();
      }
      // `admit` is asked with the opened file's real path; no means nothing is read.
      await symlink(path.join(ws, "a.txt"), path.join(ws, "in-link"));
      const asked: string[] = [];
      setSyncFastPath(true);
      expect(readFileConfinedNow(scope, path.join(ws, "in-link"), { admit: (real) => (asked.push(real), false) })).toBeUndefined();
      expect(asked).toEqual([path.join(ws, "a.txt")]);
      setSyncFastPath(false);
      expect(readFileConfinedNow(scope, path.join(ws, "a.txt"))).toBeUndefined();
    } finally {
      setSyncFastPath(true);
    }
  });
  test("reads within a byte cap", async () => {
    await writeFile(path.join(ws, "big.txt"), "x".repeat(5000));
    const read = await readFileConfined(scope, path.join(ws, "big.txt"), { maxBytes: 1000 });
    expect(read.bytes.length).toBe(1000);
    expect(read.truncated).toBe(true);
    expect((await readFileConfined(scope, path.join(ws, "big.txt"), { maxBytes: 5000 })).truncated).toBe(false);
  });
});

describe("atomic writer", () => {
  test("creates files and folders inside the root, keeps the mode of an existing file", async () => {
    const created = await writeFileConfined(scope, path.join(ws, "new", "deep", "f.txt"), "new");
    expect(created.created).toBe(true);
    expect(await readFile(path.join(ws, "new", "deep", "f.txt"), "utf8")).toBe("new");
    await chmod(path.join(ws, "a.txt"), 0o751);
    const replaced = await writeFileConfined(scope, path.join(ws, "a.txt"), "changed");
    expect(replaced.created).toBe(false);
    expect((await stat(path.join(ws, "a.txt"))).mode & 0o777).toBe(0o751);
    expect(await readFile(path.join(ws, "a.txt"), "utf8")).toBe("changed");
  });
  test("writes through an in-root symlink and keeps the link", async () => {
    await symlink("a.txt", path.join(ws, "alias.txt"));
    await writeFileConfined(scope, path.join(ws, "alias.txt"), "via link");
    expect(await readFile(path.join(ws, "a.txt"), "utf8")).toBe("via link");
    await expect((await import("node:fs/promises")).readlink(path.join(ws, "alias.txt"))).resolves.toBe("a.txt");
  });
  test("refuses writes outside: symlinked folder, dangling link, sibling prefix, hard link", async () => {
    await symlink(outside, path.join(ws, "out"));
    expect(await codeOf(writeFileConfined(scope, path.join(ws, "out", "new.txt"), "x"))).toBe(ErrorCode.PERMISSION_DENIED);
    await symlink(path.join(outside, "nothere.txt"), path.join(ws, "dangling"));
    expect(await codeOf(writeFileConfined(scope, path.join(ws, "dangling"), "x"))).toBe(ErrorCode.PERMISSION_DENIED);
    expect(await codeOf(writeFileConfined(scope, `${ws}2/x.txt`, "x"))).toBe(ErrorCode.PERMISSION_DENIED);
    await link(path.join(outside, "secret.txt"), path.join(ws, "hard.txt"));
    expect(await codeOf(writeFileConfined(scope, path.join(ws, "hard.txt"), "x"))).toBe(ErrorCode.PERMISSION_DENIED);
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("SENTINEL");
    await expect(stat(path.join(outside, "new.txt"))).rejects.toThrow();
    await expect(stat(path.join(outside, "nothere.txt"))).rejects.toThrow();
    expect(await resolveForCreate(path.join(ws, "out", "n", "m.txt"))).toBe(path.join(outside, "n", "m.txt"));
  });
  test("records its own write in the read tracker", async () => {
    const tracker = readTracker({ resources: new ResourceStore() });
    const result = await writeFileConfined(scope, path.join(ws, "a.txt"), "v2", { tracker });
    expect(tracker.get(result.realPath)?.size).toBe(2);
    expect(() => tracker.checkBeforeEdit(result.realPath, Buffer.from("v2"))).not.toThrow();
  });
  test("leaves no temp files behind", async () => {
    await writeFileConfined(scope, path.join(ws, "a.txt"), "1");
    const { readdir } = await import("node:fs/promises");
    expect((await readdir(ws)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});

describe("text format", () => {
  test("keeps CRLF and a BOM across decode/encode", () => {
    const original = "\uFEFFa\r\nb\r\n";
    const { text, format } = decodeText(original);
    expect(text).toBe("a\nb\n");
    expect(encodeText(text.replace("b", "c\nd"), format)).toBe("\uFEFFa\r\nc\r\nd\r\n");
    expect(encodeText("x\ny", decodeText("p\nq").format)).toBe("x\ny");
  });
});

describe("path locks", () => {
  test("serializes work on one path, not across paths", async () => {
    const locks = new PathLocks();
    const order: string[] = [];
    const slow = (tag: string, ms: number) => async () => {
      order.push(`start ${tag}`);
      await new Promise((r) => setTimeout(r, ms));
      order.push(`end ${tag}`);
      return tag;
    };
    const results = await Promise.all([locks.withLock("/p", slow("a", 30)), locks.withLock("/p", slow("b", 1)), locks.withLock("/q", slow("c", 1))]);
    expect(results).toEqual(["a", "b", "c"]);
    expect(order.indexOf("end a")).toBeLessThan(order.indexOf("start b"));
    expect(order.indexOf("start c")).toBeLessThan(order.indexOf("end a"));
    expect(locks.size).toBe(0);
  });
  test("a failing holder does not block the next one", async () => {
    const locks = new PathLocks();
    await expect(locks.withLock("/p", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(locks.withLock("/p", () => Promise.resolve(1))).resolves.toBe(1);
  });
});

describe("read tracker", () => {
  test("FILE_NOT_READ, then ok after a read, FILE_EXTERNALLY_MODIFIED after an outside change", () => {
    const resources = new ResourceStore();
    const tracker = readTracker({ resources });
    const bytes = Buffer.from("v1");
    const notRead = (() => {
      try {
        tracker.checkBeforeEdit("/ws/a", bytes, { displayPath: "a", readToolName: "read_file" });
      } catch (e) {
        return e;
      }
    })();
    expect(ToolError.is(notRead) && notRead.code).toBe(ErrorCode.FILE_NOT_READ);
    expect((notRead as ToolError).suggestion).toContain("read_file");
    expect(() => tracker.checkBeforeEdit("/ws/a", bytes, { skipReadBeforeEdit: true })).not.toThrow();
    tracker.recordRead("/ws/a", bytes, { mtimeMs: 1 });
    expect(() => tracker.checkBeforeEdit("/ws/a", Buffer.from("v1"))).not.toThrow();
    expect(() => tracker.checkBeforeEdit("/ws/a", Buffer.from("v2"))).toThrow(expect.objectContaining({ code: ErrorCode.FILE_EXTERNALLY_MODIFIED }));
    tracker.recordWrite("/ws/a", "v2");
    expect(() => tracker.checkBeforeEdit("/ws/a", Buffer.from("v2"))).not.toThrow();
  });
  test("a re-read of an unchanged file is no state change (no state write); a changed one is", () => {
    const resources = new ResourceStore();
    let changes = 0;
    resources.onChange(() => changes++);
    const tracker = readTracker({ resources });
    tracker.recordRead("/ws/a", Buffer.from("v1"), { mtimeMs: 1 });
    tracker.recordRead("/ws/a", Buffer.from("v1"), { mtimeMs: 1 });
    expect(changes).toBe(1);
    tracker.recordRead("/ws/a", Buffer.from("v1"), { mtimeMs: 2 });
    tracker.recordRead("/ws/a", Buffer.from("v2"), { mtimeMs: 2 });
    tracker.recordRead("/ws/b", Buffer.from("v2"), { mtimeMs: 2 });
    expect(changes).toBe(4);
    expect(tracker.get("/ws/a")).toEqual({ sha256: expect.any(String), size: 2, mtimeMs: 2 });
  });
  test("records the sha256 (hex) of exactly the bytes given: a view of a larger buffer, a string as UTF-8", () => {
    const resources = new ResourceStore();
    const tracker = readTracker({ resources });
    // sha256("abc"), FIPS 180-2's example: saved states keep matching the files they recorded.
    const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    tracker.recordRead("/ws/view", Buffer.from("xxabcyy").subarray(2, 5), { mtimeMs: 1 });
    expect(tracker.get("/ws/view")).toEqual({ sha256: abc, size: 3, mtimeMs: 1 });
    tracker.recordWrite("/ws/text", "abc", { mtimeMs: 2 });
    expect(tracker.get("/ws/text")?.sha256).toBe(abc);
    tracker.recordWrite("/ws/utf8", "é", { mtimeMs: 3 });
    // sha256 of é's two UTF-8 bytes (c3 a9), as `printf 'é' | sha256sum` gives it.
    expect(tracker.get("/ws/utf8")).toEqual({ sha256: "4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c", size: 2, mtimeMs: 3 });
    expect(() => tracker.checkBeforeEdit("/ws/utf8", Buffer.from("é", "utf8"))).not.toThrow();
  });
  test("is serializable state that round-trips", () => {
    const resources = new ResourceStore();
    readTracker({ resources }).recordRead("/ws/a", Buffer.from("x"), { mtimeMs: 5 });
    const snapshot = resources.serialize();
    expect(Object.keys(snapshot.state ?? {})).toEqual(["grok_build.FileReadTracker"]);
    const other = new ResourceStore();
    other.register(FILE_READ_TRACKER);
    expect(other.merge(JSON.parse(JSON.stringify(snapshot))).applied).toEqual(["state.grok_build.FileReadTracker"]);
    expect(readTracker({ resources: other }).get("/ws/a")?.size).toBe(1);
    expect(FILE_READ_TRACKER.decode({ "/x": { sha256: 1 } })).toEqual({});
  });
});
