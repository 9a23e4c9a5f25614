// The file operations added so that tool code needs no node:fs: reading a small rules file through a
// checked folder without following a link, creating a never-overwriting numbered file, path facts
// that reject like node:fs, and the PATH lookup of host facts.
import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { findOnPath } from "../core/host-facts.js";
import { createUniqueFileInDir } from "./atomic-write.js";
import { openDirConfined, type CheckedDir } from "./checked-dir.js";
import type { FsScope } from "./confinement.js";
import { errnoCode } from "./errno.js";
import { resolveRealPath, statPath, statPathSync } from "./path-facts.js";

let dir: string;
let scope: FsScope;
let checked: CheckedDir | undefined;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "tool-ops-")));
  scope = { roots: [dir], fsScope: "workspace" };
});
afterEach(async () => {
  await checked?.close();
  checked = undefined;
  await rm(dir, { recursive: true, force: true });
});

const codeOf = (promise: Promise<unknown>): Promise<string | undefined> =>
  promise.then(
    () => "resolved",
    (error: unknown) => errnoCode(error),
  );

describe("CheckedDir.readTextNoFollow", () => {
  test("reads a file one or more components below the folder", async () => {
    await mkdir(path.join(dir, ".git", "info"), { recursive: true });
    await writeFile(path.join(dir, ".gitignore"), "*.log\n");
    await writeFile(path.join(dir, ".git", "info", "exclude"), "secret\n");
    checked = await openDirConfined(scope, dir);
    expect(await checked.readTextNoFollow(".gitignore")).toBe("*.log\n");
    expect(await checked.readTextNoFollow(".git/info/exclude")).toBe("secret\n");
  });

  test("refuses a link as the file, does not wait on a FIFO, and takes no `..`", async () => {
    await writeFile(path.join(dir, "target"), "x\n");
    await symlink(path.join(dir, "target"), path.join(dir, ".ignore"));
    execFileSync("mkfifo", [path.join(dir, ".gitignore")]);
    checked = await openDirConfined(scope, dir);
    expect(await codeOf(checked.readTextNoFollow(".ignore"))).toBe("ELOOP");
    // Opened non-blocking, a FIFO with no writer reads as empty (or EAGAIN) at once instead of hanging.
    expect(["", "EAGAIN"]).toContain(await checked.readTextNoFollow(".gitignore").catch((error: unknown) => errnoCode(error)));
    expect(await codeOf(checked.readTextNoFollow("../etc/passwd"))).toBe("EINVAL");
    expect(await codeOf(checked.readTextNoFollow("a//b"))).toBe("EINVAL");
  });

  test("errors name the folder by its real path, not the descriptor spelling", async () => {
    checked = await openDirConfined(scope, dir);
    const error = (await checked.readTextNoFollow("missing").catch((e: unknown) => e)) as Error;
    expect(errnoCode(error)).toBe("ENOENT");
    expect(error.message).toContain(path.join(dir, "missing"));
    expect(error.message).not.toContain("/proc/self/fd");
  });
});

describe("createUniqueFileInDir", () => {
  test("takes the first free name, never replaces a file, and leaves no temporary", async () => {
    await writeFile(path.join(dir, "1.md"), "old");
    checked = await openDirConfined(scope, dir);
    let n = 1;
    const notes: string[] = [];
    const journal = { begin: async (temp: string) => (notes.push(`begin ${path.dirname(temp)}`), { end: async () => void notes.push("end") }) };
    const name = await createUniqueFileInDir(checked, () => `${n++}.md`, "new", { mode: 0o600, journal, tempFor: "web_fetch" });
    expect(name).toBe("2.md");
    expect(await readFile(path.join(dir, "1.md"), "utf8")).toBe("old");
    expect(await readFile(path.join(dir, "2.md"), "utf8")).toBe("new");
    expect((await stat(path.join(dir, "2.md"))).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).sort()).toEqual(["1.md", "2.md"]);
    expect(notes).toEqual([`begin ${dir}`, "end"]);
  });

  test("a failure other than an existing name is rethrown and the temporary is removed", async () => {
    checked = await openDirConfined(scope, dir);
    expect(await codeOf(createUniqueFileInDir(checked, () => "no/such/folder", "x"))).toBe("EINVAL");
    expect(await readdir(dir)).toEqual([]);
  });

  test("concurrent writers of one folder each get their own name", async () => {
    checked = await openDirConfined(scope, dir);
    let n = 1;
    const names = await Promise.all(Array.from({ length: 8 }, (_, i) => createUniqueFileInDir(checked!, () => `${n++}.txt`, `w${i}`)));
    expect(new Set(names).size).toBe(8);
    expect((await readdir(dir)).length).toBe(8);
  });
});

describe("path facts", () => {
  test("statPath, statPathSync and resolveRealPath resolve links and reject with the errno error", async () => {
    await mkdir(path.join(dir, "real"));
    await symlink(path.join(dir, "real"), path.join(dir, "link"));
    expect((await statPath(path.join(dir, "link"))).isDirectory()).toBe(true);
    expect(statPathSync(path.join(dir, "link")).isDirectory()).toBe(true);
    expect(await resolveRealPath(path.join(dir, "link"))).toBe(path.join(dir, "real"));
    expect(await codeOf(statPath(path.join(dir, "missing")))).toBe("ENOENT");
    expect(await codeOf(resolveRealPath(path.join(dir, "missing")))).toBe("ENOENT");
    expect(() => statPathSync(path.join(dir, "missing"))).toThrow(/ENOENT/);
  });
});

describe("findOnPath", () => {
  test("finds an executable in PATH's folders or the extra ones, skipping files that are not executable", async () => {
    await mkdir(path.join(dir, "a"));
    await mkdir(path.join(dir, "b"));
    await writeFile(path.join(dir, "a", "tool"), "not executable");
    await writeFile(path.join(dir, "b", "tool"), "#!/bin/sh\n");
    await chmod(path.join(dir, "b", "tool"), 0o755);
    const envPath = [path.join(dir, "a"), "", path.join(dir, "b")].join(path.delimiter);
    expect(findOnPath("tool", { envPath })).toBe(path.join(dir, "b", "tool"));
    expect(findOnPath("tool", { envPath: path.join(dir, "a") })).toBeUndefined();
    expect(findOnPath("tool", { envPath: undefined, extraDirs: [path.join(dir, "b")] })).toBe(path.join(dir, "b", "tool"));
    expect(findOnPath("tool", { envPath: undefined })).toBeUndefined();
    expect(findOnPath("sh")).toBeDefined();
  });
});
