// The shared ripgrep runner, with the real ripgrep of @vscode/ripgrep: exit statuses, the line and byte
// budgets, UTF-8 boundaries, deadline, cancellation (of the whole process group), spawn failures, RG_BIN_PATH.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { RIPGREP_PATH_ENV_VAR, ripgrepPath, ripgrepStatus, runRipgrep, utf8BoundaryLength, type RipgrepRun } from "./ripgrep-run.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "ripgrep-run-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const never = (): AbortSignal => new AbortController().signal;
const rg = (args: string[], file = rgPath) => ({ file, args, cwd: dir, extraFds: [] });

function done(run: RipgrepRun): Extract<RipgrepRun, { kind: "done" }> {
  if (run.kind !== "done") throw new Error(`expected a finished run, got ${run.kind}`);
  return run;
}

/** Whether a process with that pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("exit statuses: 0 is matched, 1 no_match, 2 failed with ripgrep's stderr", async () => {
  await writeFile(path.join(dir, "a.txt"), "hello\nworld\n");
  const hit = done(await runRipgrep(rg(["-e", "hello", "a.txt"]), { signal: never(), timeoutMs: 10_000 }));
  expect([hit.status, hit.exitCode, hit.stdout.toString(), hit.stdoutTruncated]).toEqual(["matched", 0, "hello\n", false]);
  const none = done(await runRipgrep(rg(["-e", "absent", "a.txt"]), { signal: never(), timeoutMs: 10_000 }));
  expect([none.status, none.exitCode, none.stdout.length]).toEqual(["no_match", 1, 0]);
  const bad = done(await runRipgrep(rg(["-e", "(", "a.txt"]), { signal: never(), timeoutMs: 10_000 }));
  expect([bad.status, bad.exitCode]).toEqual(["failed", 2]);
  expect(bad.stderr.toString()).toContain("regex parse error");
  expect([ripgrepStatus(0), ripgrepStatus(1), ripgrepStatus(2), ripgrepStatus(null)]).toEqual(["matched", "no_match", "failed", "failed"]);
});

test("the line budget stops the read after that many complete lines, and the run counts as matched", async () => {
  await writeFile(path.join(dir, "big.txt"), "hit\n".repeat(10_000));
  const run = done(await runRipgrep(rg(["-e", "hit", "big.txt"]), { signal: never(), timeoutMs: 10_000, maxLines: 5 }));
  expect([run.status, run.exitCode, run.stdoutTruncated, run.stdout.toString()]).toEqual(["matched", 0, true, "hit\n".repeat(5)]);
});

test("an exact fit of the line budget is not truncated", async () => {
  await writeFile(path.join(dir, "three.txt"), "hit\nhit\nhit\n");
  const run = done(await runRipgrep(rg(["-e", "hit", "three.txt"]), { signal: never(), timeoutMs: 10_000, maxLines: 3 }));
  expect([run.stdoutTruncated, run.stdout.toString()]).toEqual([false, "hit\nhit\nhit\n"]);
});

test("the byte budget never cuts a UTF-8 sequence", async () => {
  // "é" is two bytes: a cap of 3 bytes falls inside the second one, so only the first is kept.
  await writeFile(path.join(dir, "u.txt"), "éé\n".repeat(1_000));
  const run = done(await runRipgrep(rg(["-e", "é", "u.txt"]), { signal: never(), timeoutMs: 10_000, maxStdoutBytes: 3 }));
  expect([run.stdoutTruncated, run.stdout.toString("utf8")]).toEqual([true, "é"]);
  expect(utf8BoundaryLength(Buffer.from("aé", "utf8").subarray(0, 2))).toBe(1);
  expect(utf8BoundaryLength(Buffer.from("aé", "utf8"))).toBe(3);
  expect(utf8BoundaryLength(Buffer.from("a€", "utf8").subarray(0, 3))).toBe(1);
  expect(utf8BoundaryLength(Buffer.alloc(0))).toBe(0);
});

test("a search blocked on a FIFO ends at its deadline", async () => {
  execFileSync("mkfifo", [path.join(dir, "pipe")]);
  const run = await runRipgrep(rg(["-e", "x", "pipe"]), { signal: never(), timeoutMs: 300 });
  expect(run.kind).toBe("timeout");
});

test("a search that finished while the loop was blocked past its deadline answers its result, not TIMEOUT", async () => {
  await writeFile(path.join(dir, "a.txt"), "hello\n");
  // Block the loop right after the runner arms its deadline, as a burst of spawns on a busy machine
  // does: ripgrep finishes meanwhile, and when the loop runs again its timers come before its poll.
  const realSetTimeout = globalThis.setTimeout;
  let blocked = false;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const timer = realSetTimeout(callback, ms, ...args);
    if (ms === 300 && !blocked) {
      blocked = true;
      const until = Date.now() + 3_000;
      while (Date.now() < until);
    }
    return timer;
  }) as typeof setTimeout;
  let run: RipgrepRun;
  try {
    run = await runRipgrep(rg(["-e", "hello", "a.txt"]), { signal: never(), timeoutMs: 300 });
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  expect(blocked).toBe(true);
  expect(done(run)).toMatchObject({ status: "matched", exitCode: 0 });
  expect(done(run).stdout.toString()).toContain("hello");
});

test("aborting ends the run as cancelled; an aborted signal starts nothing", async () => {
  execFileSync("mkfifo", [path.join(dir, "pipe")]);
  const controller = new AbortController();
  const running = runRipgrep(rg(["-e", "x", "pipe"]), { signal: controller.signal, timeoutMs: 60_000 });
  controller.abort();
  expect(await running).toEqual({ kind: "cancelled" });
  const aborted = AbortSignal.abort();
  expect(await runRipgrep(rg(["-e", "x", "missing"], path.join(dir, "no-such-rg")), { signal: aborted, timeoutMs: 10_000 })).toEqual({ kind: "cancelled" });
});

test("cancellation kills the whole process group, not only the program started", async () => {
  // A stand-in that starts a child of its own and records its pid, as the search sandbox's shell does.
  const pidFile = path.join(dir, "child.pid");
  const fake = path.join(dir, "fake-rg.sh");
  await writeFile(fake, `#!/bin/sh\nsleep 60 &\necho $! > "${pidFile}"\nwait\n`);
  await chmod(fake, 0o755);
  const controller = new AbortController();
  const running = runRipgrep(rg([], fake), { signal: controller.signal, timeoutMs: 60_000 });
  let pid = 0;
  await waitFor(() => {
    try {
      pid = Number(readFileSync(pidFile, "utf8").trim());
    } catch {
      return false;
    }
    return pid > 0;
  });
  controller.abort();
  expect(await running).toEqual({ kind: "cancelled" });
  await waitFor(() => !alive(pid));
});

test("a binary that cannot be started is a spawn_error", async () => {
  const run = await runRipgrep(rg(["x"], path.join(dir, "no-such-rg")), { signal: never(), timeoutMs: 10_000 });
  expect(run.kind === "spawn_error" && run.error.message).toContain("ENOENT");
});

test("ripgrepPath: RG_BIN_PATH when set and not empty, else the bundled binary", () => {
  expect(ripgrepPath("/bundled/rg", {})).toBe("/bundled/rg");
  expect(ripgrepPath("/bundled/rg", { [RIPGREP_PATH_ENV_VAR]: "" })).toBe("/bundled/rg");
  expect(ripgrepPath("/bundled/rg", { RG_BIN_PATH: "/opt/rg" })).toBe("/opt/rg");
});
