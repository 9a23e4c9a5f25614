/**
 * A write through a path that flips between a link and a file between the writer's lstat and its
 * readlink (the fs-race harness's `oc_write` and `hashline_edit` answered "EINVAL: invalid argument,
 * readlink ..." there, #19). The flip is made at that exact moment by wrapping readlink, so no timing
 * is involved.
 */
import { jest } from "@jest/globals";
import * as actualPromises from "node:fs/promises";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, unlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** Runs before the next readlink of the writer (once per call to it while set). */
let beforeReadlink: ((linkPath: string) => Promise<void>) | undefined;
jest.unstable_mockModule("node:fs/promises", () => ({
  ...actualPromises,
  default: actualPromises,
  readlink: async (linkPath: string, ...rest: unknown[]) => {
    if (beforeReadlink !== undefined) await beforeReadlink(String(linkPath));
    return (actualPromises.readlink as (...args: unknown[]) => Promise<string>)(linkPath, ...rest);
  },
}));
const { writeFileConfined } = await import("./atomic-write.js");
const { ErrorCode } = await import("../errors/error-code.js");
const { TempJournal } = await import("./temp-journal.js");

let base: string;
let ws: string;
let outside: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "atomic-write-flip-")));
  ws = path.join(base, "ws");
  outside = path.join(base, "outside");
  await mkdir(ws);
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), "outside\n");
});
afterEach(async () => {
  beforeReadlink = undefined;
  await rm(base, { recursive: true, force: true });
});
const scope = () => ({ roots: [ws], fsScope: "workspace" as const, tempJournal: new TempJournal(path.join(base, "state")) });

/** Makes `flip.txt` a plain file inside, in place of the link the writer saw. */
async function linkBecomesFile(): Promise<void> {
  await unlink(path.join(ws, "flip.txt"));
  await writeFile(path.join(ws, "flip.txt"), "inside\n");
}

it("writes the file that replaced the link, and nothing outside", async () => {
  await symlink(path.join(outside, "secret.txt"), path.join(ws, "flip.txt"));
  let flips = 0;
  // The writer reads the link through its checked folder's descriptor (earlier readlinks are the path check's).
  beforeReadlink = async (linkPath) => {
    if (linkPath.startsWith("/proc/self/fd/") && flips++ === 0) await linkBecomesFile();
  };
  await writeFileConfined(scope(), path.join(ws, "flip.txt"), "new\n", { displayPath: "flip.txt" });
  expect(await readFile(path.join(ws, "flip.txt"), "utf8")).toBe("new\n");
  expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("outside\n");
  expect(flips).toBe(1);
});

it("gives up with a retryable EXECUTION_FAILED when the path keeps changing, not the raw errno", async () => {
  await symlink(path.join(outside, "secret.txt"), path.join(ws, "flip.txt"));
  // Every readlink finds no link (as when each lstat and readlink land on opposite sides of a flip).
  beforeReadlink = async (linkPath) => {
    throw Object.assign(new Error(`EINVAL: invalid argument, readlink '${linkPath}'`), { code: "EINVAL", errno: -22, syscall: "readlink" });
  };
  await expect(writeFileConfined(scope(), path.join(ws, "flip.txt"), "new\n", { displayPath: "flip.txt" })).rejects.toMatchObject({
    code: ErrorCode.EXECUTION_FAILED,
    message: "flip.txt changed while it was being written",
    suggestion: "Retry the call.",
    retryable: true,
  });
  expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("outside\n");
});
