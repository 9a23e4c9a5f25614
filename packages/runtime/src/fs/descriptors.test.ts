// The descriptor-based file layer (issues #12.6, #13, #23.3): checked folders, reads racing a
// replace, shared path locks, the temporaries journal and confined searches.
import { spawn, spawnSync } from "node:child_process";
import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "../errors/error-code.js";
import { ToolError } from "../errors/tool-error.js";
import type { FsScope } from "./confinement.js";
import { openDirConfined } from "./checked-dir.js";
import { descriptorPath, PROC_FD_AVAILABLE } from "./descriptor-path.js";
import { openConfined, readFileConfined } from "./safe-read.js";
import { removeFileConfined, replaceFileAtomic, writeFileConfined } from "./atomic-write.js";
import { PathLocks } from "./path-lock.js";
import { TEMP_JOURNAL_DIR_NAME, TempJournal, temporaryNameFor, temporaryWriterPid } from "./temp-journal.js";
import {
  detectSearchSandbox,
  openSearchRoot,
  removeStaleProbeFolders,
  searchSandboxPolicy,
  type SearchSandbox,
  type SearchSandboxPolicy,
} from "./search-root.js";

let base: string;
let ws: string;
let outside: string;
let scope: FsScope;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "fs-desc-")));
  ws = path.join(base, "ws");
  outside = path.join(base, "outside");
  await mkdir(path.join(ws, "sub"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), "SENTINEL");
  await writeFile(path.join(ws, "sub", "a.txt"), "inside\n");
  scope = { roots: [ws], fsScope: "workspace" };
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { code: ToolError.is(error) ? error.code : (error as NodeJS.ErrnoException).code, message: (error as Error).message };
  }
  throw new Error("expected a failure");
}

/** A pid that is certainly not running: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("checked folders", () => {
  test("a folder is checked on its descriptor; a link out is refused", async () => {
    await symlink(outside, path.join(ws, "out"));
    const dir = await openDirConfined(scope, path.join(ws, "sub"));
    expect(dir.realPath).toBe(path.join(ws, "sub"));
    expect((await dir.entries()).map((e) => e.name)).toEqual(["a.txt"]);
    await dir.close();
    const refused = await failure(openDirConfined(scope, path.join(ws, "out"), { forEntry: "x.txt" }));
    expect(refused.code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(refused.message).toContain(`(it resolves to ${path.join(outside, "x.txt")})`);
  });

  test("a folder swapped for a link after it was opened is still the folder that was checked", async () => {
    const dir = await openDirConfined(scope, path.join(ws, "sub"));
    await rename(path.join(ws, "sub"), path.join(ws, "moved"));
    await symlink(outside, path.join(ws, "sub"));
    expect((await dir.entries()).map((e) => e.name)).toEqual(["a.txt"]);
    await writeFile(dir.at("b.txt"), "through the descriptor");
    expect(await readFile(path.join(ws, "moved", "b.txt"), "utf8")).toBe("through the descriptor");
    expect(await readdir(outside)).toEqual(["secret.txt"]);
    await dir.close();
  });

  test("a child reached through the descriptor is never a link", async () => {
    await symlink(outside, path.join(ws, "sub", "link"));
    const dir = await openDirConfined(scope, path.join(ws, "sub"));
    expect(["ENOTDIR", "ELOOP"]).toContain((await failure(dir.openChild("link"))).code);
    expect(() => dir.at("../x")).toThrow();
    await dir.close();
  });

  test("creating folders checks each one before making it: nothing is made outside", async () => {
    const made = await openDirConfined(scope, path.join(ws, "new", "deeper"), { create: true });
    expect(made.realPath).toBe(path.join(ws, "new", "deeper"));
    await made.close();
    await symlink(outside, path.join(ws, "out"));
    expect((await failure(openDirConfined(scope, path.join(ws, "out", "made"), { create: true }))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await failure(openDirConfined(scope, path.join(base, "beside"), { create: true }))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(await readdir(outside)).toEqual(["secret.txt"]);
    expect((await readdir(base)).sort()).toEqual(["outside", "ws"]);
  });

  test("a dangling link where a folder is missing is followed like the kernel would, then checked", async () => {
    await symlink(path.join(ws, "target"), path.join(ws, "inside-link"));
    await symlink(path.join(outside, "nothere"), path.join(ws, "outside-link"));
    const made = await openDirConfined(scope, path.join(ws, "inside-link", "x"), { create: true });
    expect(made.realPath).toBe(path.join(ws, "target", "x"));
    await made.close();
    expect((await failure(openDirConfined(scope, path.join(ws, "outside-link", "x"), { create: true }))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(await readdir(outside)).toEqual(["secret.txt"]);
  });

  test("a missing root of the session (its own folder) can be created", async () => {
    const sessionRoot = path.join(base, "state", "session");
    const withSession: FsScope = { roots: [ws, sessionRoot], fsScope: "workspace" };
    await writeFileConfined(withSession, path.join(sessionRoot, "plan.md"), "plan");
    expect(await readFile(path.join(sessionRoot, "plan.md"), "utf8")).toBe("plan");
  });

  test("removing goes through the checked folder", async () => {
    await symlink(outside, path.join(ws, "out"));
    expect((await failure(removeFileConfined(scope, path.join(ws, "out", "secret.txt")))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(await readdir(outside)).toEqual(["secret.txt"]);
    expect((await failure(removeFileConfined(scope, path.join(ws, "sub")))).code).toBe("EISDIR");
    await removeFileConfined(scope, path.join(ws, "sub", "a.txt"));
    expect(await readdir(path.join(ws, "sub"))).toEqual([]);
  });

  test("errors through a checked folder name its real path, never the descriptor's /proc spelling", async () => {
    const dir = await openDirConfined(scope, path.join(ws, "sub"));
    try {
      const missing = await failure(dir.lstatEntry("nope.txt"));
      expect(missing.code).toBe("ENOENT");
      expect(missing.message).toContain(`'${path.join(ws, "sub", "nope.txt")}'`);
      expect(missing.message).not.toContain("/proc/self/fd");
      // A temporary is named as the file it stands for; /proc/self/fd/3 is not taken for /proc/self/fd/3x.
      const error = Object.assign(new Error(`ENOENT: no such file or directory, open '${dir.at(".a.txt.1.abc.tmp")}'`), { path: dir.at(".a.txt.1.abc.tmp") });
      dir.explain(error, { from: ".a.txt.1.abc.tmp", to: "a.txt" });
      expect([error.message, error.path]).toEqual([
        `ENOENT: no such file or directory, open '${path.join(ws, "sub", "a.txt")}'`,
        path.join(ws, "sub", "a.txt"),
      ]);
      const renamed = new Error(`ENOENT: no such file or directory, rename '${dir.at(".a.txt.1.abc.tmp")}' -> '${dir.at("a.txt")}'`);
      expect((dir.explain(renamed, { from: ".a.txt.1.abc.tmp", to: "a.txt" }) as Error).message).toBe(
        `ENOENT: no such file or directory, rename '${path.join(ws, "sub", "a.txt")}'`,
      );
      const other = new Error(`open '${dir.path}0/x'`);
      expect((dir.explain(other) as Error).message).toBe(`open '${dir.path}0/x'`);
    } finally {
      await dir.close();
    }
  });

  test("a folder removed while it is being opened is missing, not a path to check", async () => {
    const { realPathOfHandle } = await import("./confinement.js");
    const { open } = await import("node:fs/promises");
    const handle = await open(path.join(ws, "sub"), "r");
    await rm(path.join(ws, "sub"), { recursive: true });
    try {
      if (PROC_FD_AVAILABLE) expect((await failure(realPathOfHandle(handle, path.join(ws, "sub"), { removed: "enoent" }))).code).toBe("ENOENT");
      // A file's descriptor keeps the path it had (a read racing a replace reads the old content).
      if (PROC_FD_AVAILABLE) expect(await realPathOfHandle(handle, path.join(ws, "sub"))).toBe(path.join(ws, "sub"));
    } finally {
      await handle.close();
    }
  });

  test("a temporary name stays a legal file name next to a long name", () => {
    const name = temporaryNameFor("n".repeat(250));
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(temporaryWriterPid(name)).toBe(process.pid);
    expect(temporaryWriterPid(".a.txt.12.abc.tmp")).toBeUndefined();
  });
});

describe("a read racing a replace (issue #13)", () => {
  test("a file replaced after it was opened reads its old content, with its path, and no error", async () => {
    const file = path.join(ws, "sub", "a.txt");
    const opened = await openConfined(scope, file);
    await writeFileConfined(scope, file, "replaced\n");
    if (PROC_FD_AVAILABLE) expect(await descriptorPath(opened.handle.fd)).toEqual({ path: file, deleted: true });
    const { realPathOfHandle } = await import("./confinement.js");
    expect(await realPathOfHandle(opened.handle, file)).toBe(file);
    expect((await opened.handle.readFile()).toString()).toBe("inside\n");
    await opened.handle.close();
    expect((await readFileConfined(scope, file)).bytes.toString()).toBe("replaced\n");
  });

  test("a file opened from outside and then removed is still refused", async () => {
    const opened = await openConfined({ roots: [], fsScope: "any" }, path.join(outside, "secret.txt"));
    await rm(path.join(outside, "secret.txt"));
    const { assertInsideRoots, realPathOfHandle } = await import("./confinement.js");
    const real = await realPathOfHandle(opened.handle, path.join(outside, "secret.txt"));
    expect((await failure(assertInsideRoots(scope, real, "secret.txt"))).code).toBe(ErrorCode.PERMISSION_DENIED);
    await opened.handle.close();
  });

  test("300 reads racing 50 replaces of one file see the old or the new content, never an error", async () => {
    const file = path.join(ws, "sub", "a.txt");
    const versions = new Set(["inside\n"]);
    const writer = (async () => {
      for (let i = 0; i < 50; i++) {
        versions.add(`v${i}\n`);
        await writeFileConfined(scope, file, `v${i}\n`);
      }
    })();
    const seen: string[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let i = 0; i < 30; i++) seen.push((await readFileConfined(scope, file)).bytes.toString());
      }),
    );
    await writer;
    expect(seen.filter((content) => !versions.has(content))).toEqual([]);
  });
});

describe("shared path locks", () => {
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { opened, open };
  };

  test("reads share a path, an edit waits for them, and reads after a waiting edit wait for it", async () => {
    const locks = new PathLocks();
    const order: string[] = [];
    const first = gate();
    const r1 = locks.withSharedLock("/p", async () => {
      order.push("r1 start");
      await first.opened;
      order.push("r1 end");
    });
    const r2 = locks.withSharedLock("/p", async () => {
      order.push("r2 start");
    });
    const w = locks.withLock("/p", async () => {
      order.push("w");
    });
    const r3 = locks.withSharedLock("/p", async () => {
      order.push("r3");
    });
    await r2;
    expect(order).toEqual(["r1 start", "r2 start"]);
    first.open();
    await Promise.all([r1, w, r3]);
    expect(order).toEqual(["r1 start", "r2 start", "r1 end", "w", "r3"]);
    expect(locks.size).toBe(0);
  });

  test("canShareNow: a shared holder would start at once only with no edit running or queued", async () => {
    const locks = new PathLocks();
    expect(locks.canShareNow("/p")).toBe(true);
    const reader = gate();
    const r = locks.withSharedLock("/p", () => reader.opened);
    expect(locks.canShareNow("/p")).toBe(true);
    const writer = gate();
    const w = locks.withLock("/p", () => writer.opened);
    // Queued behind the reader: a new reader would wait for the edit, so it cannot start now.
    expect(locks.canShareNow("/p")).toBe(false);
    expect(locks.canShareNow("/q")).toBe(true);
    reader.open();
    await r;
    expect(locks.canShareNow("/p")).toBe(false);
    writer.open();
    await w;
    expect(locks.canShareNow("/p")).toBe(true);
  });

  test("an edit excludes reads until it ends, even when it fails", async () => {
    const locks = new PathLocks();
    const order: string[] = [];
    const w = locks.withLock("/p", async () => {
      order.push("w");
      throw new Error("boom");
    });
    const r = locks.withSharedLock("/p", async () => {
      order.push("r");
    });
    await expect(w).rejects.toThrow("boom");
    await r;
    expect(order).toEqual(["w", "r"]);
    expect(locks.size).toBe(0);
  });
});

describe("the temporaries journal (issue #23 item 3)", () => {
  test("writes are journalled while their temporary exists, and crossed out after", async () => {
    const journal = new TempJournal(path.join(base, "state"));
    await writeFileConfined({ ...scope, tempJournal: journal }, path.join(ws, "sub", "a.txt"), "x".repeat(1024 * 1024));
    expect(await readdir(journal.dir)).toEqual([]);
    expect((await readdir(path.join(ws, "sub"))).sort()).toEqual(["a.txt"]);
    const entry = await journal.begin(path.join(ws, "sub", ".a.txt.1.000000000000.tmp"));
    expect((await readdir(journal.dir)).length).toBe(1);
    await entry.end();
    expect(await readdir(journal.dir)).toEqual([]);
  });

  test("recovery removes the temporaries of writers that are gone, and only those", async () => {
    const stateDir = path.join(base, "state");
    const journal = new TempJournal(stateDir);
    const dead = deadPid();
    const deadTemp = path.join(ws, "sub", `.a.txt.${dead}.0123456789ab.tmp`);
    const liveTemp = path.join(ws, "sub", temporaryNameFor("a.txt"));
    await writeFile(deadTemp, "torn");
    await writeFile(liveTemp, "being written");
    await mkdir(journal.dir, { recursive: true });
    await writeFile(path.join(journal.dir, `${dead}.1.json`), JSON.stringify({ temp: deadTemp, pid: dead }));
    const live = await journal.begin(liveTemp);
    // A journal line whose folder is now a link outside: the link is not followed.
    await mkdir(path.join(ws, "gone"));
    const swappedTemp = path.join(ws, "gone", `.s.txt.${dead}.0123456789ab.tmp`);
    await writeFile(path.join(journal.dir, `${dead}.2.json`), JSON.stringify({ temp: swappedTemp, pid: dead }));
    await rm(path.join(ws, "gone"), { recursive: true });
    const outsideTemp = path.join(outside, `.s.txt.${dead}.0123456789ab.tmp`);
    await writeFile(outsideTemp, "not ours to remove");
    await symlink(outside, path.join(ws, "gone"));
    // The state file's own temporaries, in the state folder's session folders.
    await mkdir(path.join(stateDir, "default"), { recursive: true });
    const stateTemp = path.join(stateDir, "default", `.state.json.${dead}.0123456789ab.tmp`);
    await writeFile(stateTemp, "{");
    await writeFile(path.join(stateDir, "default", "state.json"), "{}");
    // A torn journal line (a crash while writing it) is dropped.
    await writeFile(path.join(journal.dir, `${dead}.3.json`), '{"temp":');
    // So is an entry killed while it was written beside its name (issue #19); a live writer's is kept.
    await writeFile(path.join(journal.dir, `${dead}.4.json.partial`), "");
    await writeFile(path.join(journal.dir, `${process.pid}.5.json.partial`), '{"temp":');

    const report = await journal.recover();
    expect(report.removed.sort()).toEqual([deadTemp, stateTemp].sort());
    expect(report.live).toBe(1);
    expect((await readdir(path.join(ws, "sub"))).sort()).toEqual([path.basename(liveTemp), "a.txt"].sort());
    expect(await readFile(outsideTemp, "utf8")).toBe("not ours to remove");
    expect(await readdir(path.join(stateDir, "default"))).toEqual(["state.json"]);
    const left = await readdir(journal.dir);
    expect(left.filter((n) => n.endsWith(".partial"))).toEqual([`${process.pid}.5.json.partial`]);
    expect(left.filter((n) => n.endsWith(".json"))).toHaveLength(1);
    expect(left).toHaveLength(2);
    await rm(path.join(journal.dir, `${process.pid}.5.json.partial`));
    await live.end();
    expect(path.basename(journal.dir)).toBe(TEMP_JOURNAL_DIR_NAME);
  });

  test("the server's own atomic replace keeps working without a journal", async () => {
    await replaceFileAtomic(path.join(base, "state", "x", "state.json"), "{}");
    expect(await readFile(path.join(base, "state", "x", "state.json"), "utf8")).toBe("{}");
    expect((await lstat(path.join(base, "state", "x"))).isDirectory()).toBe(true);
  });
});

describe("confined searches", () => {
  function run(launch: { file: string; args: string[]; cwd?: string; extraFds: number[] }): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(launch.file, launch.args, { stdio: ["ignore", "pipe", "pipe", ...launch.extraFds], ...(launch.cwd ? { cwd: launch.cwd } : {}) });
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  }

  test("a search root outside is refused on its descriptor", async () => {
    await symlink(outside, path.join(ws, "out"));
    expect((await failure(openSearchRoot(scope, path.join(ws, "out")))).code).toBe(ErrorCode.PERMISSION_DENIED);
    const any = await openSearchRoot({ roots: [], fsScope: "any" }, path.join(ws, "out"));
    expect(any.realPath).toBe(outside);
    await any.close();
  });

  test("a folder root runs the program inside the checked folder; its paths are shown as the caller wrote them", async () => {
    const root = await openSearchRoot(scope, path.join(ws, "sub"), { shownAs: `${ws}/./sub/` });
    expect(root.pathArgument).toBe(".");
    // The folder is swapped for a link before the program starts: it still runs in the checked one.
    await rename(path.join(ws, "sub"), path.join(ws, "moved"));
    await symlink(outside, path.join(ws, "sub"));
    const result = await run(await root.launch("/bin/ls", ["-1", root.pathArgument]));
    await root.close();
    if ((await detectSearchSandbox()).mode === "nosymfollow-mount") {
      // The sandbox enters the folder by its path, where no link is followed: the swap is refused.
      expect([result.code, result.stdout, result.stderr]).toEqual([2, "", "grok-tools: the search folder changed while the search started; search again\n"]);
    } else {
      expect(result.stdout).toBe("a.txt\n");
    }
    expect(root.rewriteOutput("./a.txt\n12:./not a path\nrg: ./b: denied")).toBe(`${ws}/./sub/a.txt\n12:./not a path\nrg: ${ws}/./sub/b: denied`);
  });

  test("a file root is handed over as a descriptor", async () => {
    const file = path.join(ws, "sub", "a.txt");
    const root = await openSearchRoot(scope, file, { shownAs: "sub/a.txt" });
    await rm(file);
    await symlink(path.join(outside, "secret.txt"), file);
    const result = await run(await root.launch("/bin/cat", [root.pathArgument]));
    await root.close();
    expect(result.stdout).toBe("inside\n");
    if (PROC_FD_AVAILABLE) expect(root.rewriteOutput("/proc/self/fd/3:2\n/proc/self/fd/3")).toBe("sub/a.txt:2\nsub/a.txt");
  });

  describe("without a mount namespace", () => {
    const none = (policy: SearchSandboxPolicy): SearchSandbox => ({
      mode: "none",
      policy,
      prefix: [],
      mountCommand: "",
      detail: "mount namespaces unavailable (test)",
    });

    test("the fallback still pins the root: the program runs in the checked folder even after a swap", async () => {
      const root = await openSearchRoot(scope, path.join(ws, "sub"));
      await rename(path.join(ws, "sub"), path.join(ws, "moved"));
      await symlink(outside, path.join(ws, "sub"));
      const launch = await root.launch("/bin/ls", ["-1", root.pathArgument], none("auto"));
      expect(launch.file).toBe("/bin/ls");
      const result = await run(launch);
      await root.close();
      expect(result.stdout).toBe("a.txt\n");
    });

    test("`require` refuses searches inside the roots, but not with --fs-scope any or on a single file", async () => {
      const root = await openSearchRoot(scope, path.join(ws, "sub"));
      const refused = await failure(root.launch("/bin/ls", ["."], none("require")));
      await root.close();
      expect(refused.code).toBe(ErrorCode.PERMISSION_DENIED);
      expect(refused.message).toBe(
        "Permission denied: this server refuses searches, since it cannot keep them inside the workspace here (mount namespaces unavailable (test)).",
      );
      const file = await openSearchRoot(scope, path.join(ws, "sub", "a.txt"));
      expect((await file.launch("/bin/cat", [file.pathArgument], none("require"))).file).toBe("/bin/cat");
      await file.close();
      const any = await openSearchRoot({ roots: [], fsScope: "any" }, outside);
      expect((await any.launch("/bin/ls", ["."], none("require"))).file).toBe("/bin/ls");
      await any.close();
    });

    test("the policy comes from GROK_TOOLS_SEARCH_SANDBOX; `off` is reported as such", async () => {
      expect([
        searchSandboxPolicy({}),
        searchSandboxPolicy({ GROK_TOOLS_SEARCH_SANDBOX: "off" }),
        searchSandboxPolicy({ GROK_TOOLS_SEARCH_SANDBOX: "require" }),
        searchSandboxPolicy({ GROK_TOOLS_SEARCH_SANDBOX: "on" }),
      ]).toEqual(["auto", "off", "require", "auto"]);
      const saved = process.env.GROK_TOOLS_SEARCH_SANDBOX;
      process.env.GROK_TOOLS_SEARCH_SANDBOX = "off";
      try {
        const off = await detectSearchSandbox();
        expect([off.mode, off.policy]).toEqual(["none", "off"]);
        expect(off.detail).toContain("can be followed");
      } finally {
        if (saved === undefined) delete process.env.GROK_TOOLS_SEARCH_SANDBOX;
        else process.env.GROK_TOOLS_SEARCH_SANDBOX = saved;
      }
    });
  });

  test("in the search sandbox a file system mounted below the root is still searched, and refuses links too", async () => {
    const sandbox = await detectSearchSandbox();
    const vol = path.join(ws, "sub", "my vol");
    await mkdir(vol);
    const mounted = sandbox.mode === "nosymfollow-mount" && spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "none", vol]).status === 0;
    if (!mounted) {
      console.warn(`SKIPPED: cannot mount a tmpfs here to test searches below a mount (sandbox: ${sandbox.mode})`);
      return;
    }
    try {
      await writeFile(path.join(vol, "b.txt"), "in the volume\n");
      await symlink(outside, path.join(vol, "link"));
      const root = await openSearchRoot(scope, path.join(ws, "sub"));
      const result = await run(await root.launch("/bin/sh", ["-c", 'cat "my vol/b.txt"; cat "my vol/link/secret.txt"']));
      await root.close();
      // Before: a plain bind mount hid the volume (No such file), so a search silently missed it.
      expect(result.stdout).toBe("in the volume\n");
      expect(result.stderr).toContain("Too many levels of symbolic links");
    } finally {
      spawnSync("umount", ["-l", vol]);
    }
  });

  test("the probe's scratch folders left by a killed process are removed; others' are left alone", async () => {
    const dead = path.join(os.tmpdir(), `grok-tools-probe-${deadPid()}-test`);
    const mine = path.join(os.tmpdir(), `grok-tools-probe-${process.pid}-test`);
    const unknown = path.join(os.tmpdir(), "grok-tools-probe-Xtest");
    for (const dir of [dead, mine, unknown]) await mkdir(path.join(dir, "root"), { recursive: true });
    try {
      await removeStaleProbeFolders();
      expect(
        await Promise.all(
          [dead, mine, unknown].map((dir) =>
            lstat(dir).then(
              () => true,
              () => false,
            ),
          ),
        ),
      ).toEqual([false, true, true]);
    } finally {
      for (const dir of [dead, mine, unknown]) await rm(dir, { recursive: true, force: true });
    }
  });

  test("in the search sandbox no link below the root is followed (where the kernel offers one)", async () => {
    const sandbox = await detectSearchSandbox();
    if (sandbox.mode !== "nosymfollow-mount") {
      console.warn(`SKIPPED: no mount namespace for searches here (${sandbox.detail})`);
      expect(process.env.GROK_TOOLS_REQUIRE_SEARCH_SANDBOX ?? "0").toBe("0");
      return;
    }
    await symlink(outside, path.join(ws, "sub", "link"));
    const root = await openSearchRoot(scope, path.join(ws, "sub"));
    const result = await run(await root.launch("/bin/sh", ["-c", "cat a.txt; cat link/secret.txt"]));
    await root.close();
    expect(result.stdout).toBe("inside\n");
    expect(result.stderr).toContain("Too many levels of symbolic links");
  });
});
