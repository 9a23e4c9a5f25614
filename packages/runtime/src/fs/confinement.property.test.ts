/**
 * Property tests of the path resolver and confinement (issue #19): any path built from `.`, `..`,
 * names, links in and out, dangling links and link cycles resolves where the kernel resolves it,
 * and nothing the confined reads and writes accept lands outside the roots, unless the scope is `any`.
 */
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { lstat, mkdir, mkdtemp, readFile, readdir, readlink, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "../errors/error-code.js";
import { ToolError } from "../errors/tool-error.js";
import { writeFileConfined } from "./atomic-write.js";
import { assertPathInsideRoots, isWithinRoot, resolveForCreate, type FsScope } from "./confinement.js";
import { readFileConfined } from "./safe-read.js";

let base: string;
let ws: string;
let outside: string;
let scope: FsScope;

/**
 * ws/ (the root): a/b/f.txt, in -> a/b (a link inside), out -> ../outside, dangling -> ../outside/nope,
 * dangling-in -> a/none, up -> .. (the root's parent), loop1 <-> loop2, self-file -> a/b/f.txt;
 * outside/: s.txt, d/s.txt, back -> ../ws/a (a link from outside into the root).
 */
beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "gt-resolver-")));
  ws = path.join(base, "ws");
  outside = path.join(base, "outside");
  await mkdir(path.join(ws, "a", "b"), { recursive: true });
  await mkdir(path.join(outside, "d"), { recursive: true });
  await writeFile(path.join(ws, "a", "b", "f.txt"), "in\n");
  await writeFile(path.join(outside, "s.txt"), "out\n");
  await writeFile(path.join(outside, "d", "s.txt"), "out\n");
  await symlink("a/b", path.join(ws, "in"));
  await symlink("../outside", path.join(ws, "out"));
  await symlink("../outside/nope", path.join(ws, "dangling"));
  await symlink("a/none", path.join(ws, "dangling-in"));
  await symlink("..", path.join(ws, "up"));
  await symlink("loop2", path.join(ws, "loop1"));
  await symlink("loop1", path.join(ws, "loop2"));
  await symlink("a/b/f.txt", path.join(ws, "self-file"));
  await symlink("../ws/a", path.join(outside, "back"));
  scope = { roots: [ws], fsScope: "workspace" };
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const COMPONENTS = [
  ".",
  "..",
  "a",
  "b",
  "f.txt",
  "in",
  "out",
  "dangling",
  "dangling-in",
  "up",
  "loop1",
  "self-file",
  "d",
  "s.txt",
  "back",
  "new",
  "ws",
  "outside",
];

/** A path of 1 to 7 components, relative to the root or to its parent, or absolute from the base. */
const generatedPath = fc
  .tuple(fc.constantFrom("ws", "base", "outside"), fc.array(fc.constantFrom(...COMPONENTS), { minLength: 1, maxLength: 7 }), fc.boolean())
  .map(([start, parts, trailingSlash]) => {
    const from = start === "ws" ? ws : start === "base" ? base : outside;
    return `${from}/${parts.join("/")}${trailingSlash ? "/" : ""}`;
  });

/** Every entry under `dir` (links not followed) with its kind and content: a write outside shows. */
async function snapshot(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const full = path.join(dir, name);
    const info = await lstat(full);
    if (info.isSymbolicLink()) out.push(`${prefix}${name} -> ${await readlink(full)}`);
    else if (info.isFile())
      out.push(
        `${prefix}${name} ${info.ino} ${createHash("sha256")
          .update(await readFile(full))
          .digest("hex")}`,
      );
    else out.push(`${prefix}${name}/`, ...(await snapshot(full, `${prefix}${name}/`)));
  }
  return out;
}

const inside = (real: string): boolean => isWithinRoot(real, ws);

async function outcome<T>(work: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error };
  }
}

describe("resolveForCreate", () => {
  test("agrees with the kernel on every path that exists (`..` after a link included)", async () => {
    await fc.assert(
      fc.asyncProperty(generatedPath, async (p) => {
        const kernel = await realpath(p).catch(() => undefined);
        if (kernel === undefined) return;
        expect(await resolveForCreate(p)).toBe(kernel);
      }),
      { numRuns: 300 },
    );
  });

  test("is never fooled into inside by a missing tail: a path below an outside folder resolves outside", async () => {
    await fc.assert(
      fc.asyncProperty(generatedPath, fc.constantFrom("x", "x/y", "x/../y"), async (p, tail) => {
        const kernel = await realpath(p).catch(() => undefined);
        if (kernel === undefined || inside(kernel)) return;
        const resolved = await resolveForCreate(`${p}/${tail}`).catch((error: unknown) => error);
        if (typeof resolved === "string") expect(inside(resolved)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe("confinement", () => {
  test("assertPathInsideRoots refuses exactly the paths that resolve outside, whether or not they exist", async () => {
    await fc.assert(
      fc.asyncProperty(generatedPath, async (p) => {
        const resolved = await outcome(() => resolveForCreate(p));
        const checked = await outcome(() => assertPathInsideRoots(scope, p));
        if (!resolved.ok) return;
        if (inside(resolved.value)) expect(checked.ok).toBe(true);
        else expect(!checked.ok && ToolError.is(checked.error) && checked.error.code).toBe(ErrorCode.PERMISSION_DENIED);
        // With `fsScope: "any"` nothing is refused for being outside.
        expect((await outcome(() => assertPathInsideRoots({ roots: [ws], fsScope: "any" }, p))).ok).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test("a confined read returns only files inside the roots, and an outside path is refused, never reported missing", async () => {
    await fc.assert(
      fc.asyncProperty(generatedPath, async (p) => {
        const read = await outcome(() => readFileConfined(scope, p));
        const kernel = await realpath(p).catch(() => undefined);
        if (read.ok) {
          expect(inside(read.value.realPath)).toBe(true);
          return;
        }
        const resolved = await resolveForCreate(p).catch(() => undefined);
        const outsideTarget = (kernel !== undefined && !inside(kernel)) || (resolved !== undefined && !inside(resolved));
        if (outsideTarget) expect(ToolError.is(read.error) && read.error.code).toBe(ErrorCode.PERMISSION_DENIED);
      }),
      { numRuns: 300 },
    );
  });

  test("a confined write lands inside the roots or is refused, and never changes anything outside", async () => {
    const before = await snapshot(outside);
    const beforeBase = (await readdir(base)).sort();
    await fc.assert(
      fc.asyncProperty(generatedPath, async (p) => {
        const written = await outcome(() => writeFileConfined(scope, p, "w\n"));
        if (written.ok) {
          expect(inside(written.value.realPath)).toBe(true);
          expect(await realpath(p)).toBe(written.value.realPath);
          expect(await readFile(written.value.realPath, "utf8")).toBe("w\n");
        }
        expect(await snapshot(outside)).toEqual(before);
        expect((await readdir(base)).sort()).toEqual(beforeBase);
      }),
      { numRuns: 150 },
    );
  });
});
