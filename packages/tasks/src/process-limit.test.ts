/**
 * Per-session process limits (issue #19): each session's commands join a pids cgroup of the
 * session's own, nested in the server's, so a fork bomb in one session stops at its limit while
 * another session still runs commands; the groups go when their sessions close. The kernel parts
 * skip themselves (one line) where no pids cgroup can be made; the v2 layout is checked on a
 * folder standing for the hierarchy everywhere.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { jest } from "@jest/globals";
import { childEnvironment } from "./child-env.js";
import { detectProcessIsolation } from "./process-isolation.js";
import {
  DEFAULT_MAX_SESSION_PROCESSES,
  MAX_SESSION_PROCESSES_ENV_VAR,
  createProcessLimit,
  processLimit,
  processLimitDetail,
  removeStaleGroups,
  sessionGroupName,
  sessionLimitFrom,
} from "./process-limit.js";
import { TaskManager } from "./task-manager.js";

jest.setTimeout(60_000);

// Read on the first use of the limit, which is this file's (each test file has its own modules).
const SESSION_MAX = 24;
const previous = process.env[MAX_SESSION_PROCESSES_ENV_VAR];
process.env[MAX_SESSION_PROCESSES_ENV_VAR] = String(SESSION_MAX);
afterAll(() => {
  if (previous === undefined) delete process.env[MAX_SESSION_PROCESSES_ENV_VAR];
  else process.env[MAX_SESSION_PROCESSES_ENV_VAR] = previous;
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "gt-limit-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Generous: removal of a group is retried with a backoff (up to 5 s apart) while killed processes go.
async function until(condition: () => boolean, timeoutMs = 30_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

function number(group: string, file: "pids.max" | "pids.current"): number {
  return Number(readFileSync(path.join(group, file), "utf8").trim());
}

/** How often forks were refused at the group's own limit (`max N` of pids.events). */
function refused(group: string): number {
  return Number(/max (\d+)/.exec(readFileSync(path.join(group, "pids.events"), "utf8"))?.[1] ?? 0);
}

describe("the per-session limit's setting", () => {
  it("defaults to 512 under the server's limit, never above it, 0 for none", () => {
    expect(DEFAULT_MAX_SESSION_PROCESSES).toBe(512);
    expect(sessionLimitFrom(undefined, 2048)).toEqual({ sessionMax: 512 });
    expect(sessionLimitFrom("", 96)).toEqual({ sessionMax: 96 });
    expect(sessionLimitFrom("5000", 2048)).toEqual({ sessionMax: 2048 });
    expect(sessionLimitFrom("32", 2048)).toEqual({ sessionMax: 32 });
    expect(sessionLimitFrom("0", 2048)).toEqual({ sessionMax: 0, note: `${MAX_SESSION_PROCESSES_ENV_VAR}=0: no per-session limit` });
    expect(sessionLimitFrom("lots", 2048)).toEqual({
      sessionMax: 0,
      note: `${MAX_SESSION_PROCESSES_ENV_VAR}=lots is not a whole number; no per-session limit`,
    });
  });

  it("names groups safely and stably whatever the session id holds", () => {
    for (const id of ["a", "../../etc", "x/y z\n", "é\u0000", ""]) expect(sessionGroupName(id)).toMatch(/^session-[0-9a-f]{16}$/);
    expect(sessionGroupName("a")).toBe(sessionGroupName("a"));
    expect(sessionGroupName("a")).not.toBe(sessionGroupName("b"));
  });
});

describe("the cgroup v2 layout (a folder stands for the hierarchy)", () => {
  it("hands pids down to the session groups and keeps commands in leaves", () => {
    writeFileSync(path.join(dir, "cgroup.subtree_control"), "pids");
    const limit = createProcessLimit(dir, "grok-tools-test", 100, { sessionMax: 10 });
    const group = path.join(dir, "grok-tools-test");
    expect(readFileSync(path.join(group, "pids.max"), "utf8")).toBe("100");
    expect(readFileSync(path.join(group, "cgroup.subtree_control"), "utf8")).toBe("+pids");
    // Commands outside a session join a leaf, never the group that has children.
    expect(limit.procsFile).toBe(path.join(group, "shared", "cgroup.procs"));
    expect(readFileSync(path.join(group, "shared", "pids.max"), "utf8")).toBe("10");
    const session = limit.acquireSession("one")!;
    expect(session.group).toBe(path.join(group, sessionGroupName("one")));
    expect(readFileSync(path.join(session.group, "pids.max"), "utf8")).toBe("10");
    expect(limit.detail).toBe(`commands share a process limit of 100 (pids cgroup ${group}), 10 per session`);
  });

  it("without a per-session limit, commands join the server's group as before", () => {
    const limit = createProcessLimit(dir, "grok-tools-test", 100, sessionLimitFrom("0", 100));
    expect(limit.procsFile).toBe(path.join(dir, "grok-tools-test", "cgroup.procs"));
    expect(limit.acquireSession("one")).toBeUndefined();
    expect(existsSync(path.join(dir, "grok-tools-test", "cgroup.subtree_control"))).toBe(false);
    expect(limit.detail).toBe(
      `commands share a process limit of 100 (pids cgroup ${path.join(dir, "grok-tools-test")}); ${MAX_SESSION_PROCESSES_ENV_VAR}=0: no per-session limit`,
    );
  });
});

describe("per-session pids cgroups", () => {
  const limit = processLimit();
  const isolation = detectProcessIsolation();
  // Commands join a group only with the unshare layouts (not bubblewrap, not process groups).
  const joined = limit !== undefined && limit.sessionMax > 0 && isolation.processLimitFile !== undefined;
  if (!joined) {
    console.warn(
      `SKIPPED: per-session process limits (${limit ? (isolation.processLimitFile ? processLimitDetail() : isolation.detail) : processLimitDetail()})`,
    );
    it.skip("need a pids cgroup and PID namespaces", () => undefined);
    return;
  }
  const spec = (command: string, name: string, timeoutMs = 20_000, outputLimitChars = 2000) => ({
    command,
    cwd: dir,
    env: childEnvironment(),
    logFile: path.join(dir, `${name}.log`),
    outputLimitChars,
    toolCallId: name,
    timeoutMs,
  });

  it("gives each session its own group under the server's, and removes it when the session closes", async () => {
    expect(processLimitDetail()).toContain(`, ${SESSION_MAX} per session`);
    const a = new TaskManager({ sessionId: "session A" });
    const b = new TaskManager({ sessionId: "../session/B\n" });
    const [ra, rb] = await Promise.all([a.runForeground(spec("cat /proc/self/cgroup", "ga")), b.runForeground(spec("cat /proc/self/cgroup", "gb"))]);
    const groupA = a.processLimit!.group;
    const groupB = b.processLimit!.group;
    expect(groupA).not.toBe(groupB);
    for (const [group, result] of [
      [groupA, ra.result],
      [groupB, rb.result],
    ] as const) {
      expect(path.dirname(group)).toBe(limit.group);
      expect(number(group, "pids.max")).toBe(SESSION_MAX);
      // The command ran in it: its cgroup path (v1 `N:pids:/...`, v2 `0::/...`) ends with the group's.
      expect(result.output).toContain(`/${path.basename(limit.group)}/${path.basename(group)}\n`);
    }
    expect(number(limit.group, "pids.max")).toBe(limit.max);
    // The command's environment is the one it was given: the leader names the group, not a variable.
    // Names only, and room for all of them: CI's environment (long PATH, NX_* values) outgrows a
    // small output limit, and a middle-truncated line would read as a bogus name.
    const env = await a.runForeground(spec("env -0 | cut -z -d= -f1", "env", 20_000, 1_000_000));
    expect(env.result.output).not.toContain("(output truncated)");
    const names = env.result.output.split("\0").filter(Boolean);
    const allowed = new Set([...Object.keys(childEnvironment()), "GROK_TOOLS_PROCESS_MARKER", "PWD", "SHLVL", "_"]);
    expect(names.filter((name) => !allowed.has(name))).toEqual([]);
    await Promise.all([a.dispose(), b.dispose()]);
    // The spares killed at close may take a moment: removal is retried.
    expect(await until(() => !existsSync(groupA) && !existsSync(groupB))).toBe(true);
    expect(existsSync(limit.group)).toBe(true);
  });

  it("stops a fork bomb at its session's limit while another session still runs commands", async () => {
    const a = new TaskManager({ sessionId: "bomb" });
    const b = new TaskManager({ sessionId: "calm" });
    await b.runForeground(spec("true", "warm"));
    // A classic fork bomb, then a builtin wait on a FIFO (no fork needed once the limit is reached).
    const bomb = a.runForeground(spec("mkfifo f; bomb() { bomb | bomb & }; bomb 2>/dev/null; read -r x <> f", "bomb", 4_000));
    expect(await until(() => a.processLimit !== undefined)).toBe(true);
    const group = a.processLimit!.group;
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, number(group, "pids.current"));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    try {
      // The bomb reached its limit: forks are refused in its group.
      expect(await until(() => refused(group) > 0)).toBe(true);
      const calm = await b.runForeground(spec("echo ok", "ok"));
      expect(calm.result).toMatchObject({ output: "ok\n", exitCode: 0, signal: null });
      expect(number(b.processLimit!.group, "pids.current")).toBeLessThan(SESSION_MAX);
      expect(refused(b.processLimit!.group)).toBe(0);
      const ended = await bomb;
      expect(ended.result.signal).toBe("timeout");
    } finally {
      sampling = false;
      await sampler;
      await Promise.all([a.dispose(), b.dispose()]);
    }
    expect(peak).toBeLessThanOrEqual(SESSION_MAX);
    expect(peak).toBeGreaterThan(SESSION_MAX / 2);
    expect(await until(() => !existsSync(group))).toBe(true);
  });

  it("keeps a released group while processes remain, and removes it once they are gone", async () => {
    const held = limit.acquireSession("lingering")!;
    // A process of the group's own, as a command's straggler would be.
    const child = spawn("/bin/sh", ["-c", `echo 0 > '${held.procsFile}' && exec sleep 60`], { stdio: "ignore" });
    expect(await until(() => readFileSync(held.procsFile, "utf8").trim() === String(child.pid))).toBe(true);
    held.release();
    held.release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(held.group)).toBe(true);
    // Held again meanwhile (the session opened again): not removed while held, even once empty.
    const again = limit.acquireSession("lingering")!;
    expect(again.group).toBe(held.group);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(held.group)).toBe(true);
    again.release();
    expect(await until(() => !existsSync(held.group))).toBe(true);
  });

  it("removes a dead server's group with its session groups at start", async () => {
    const hierarchy = path.dirname(limit.group);
    const gone = spawn("/bin/true");
    await new Promise((resolve) => gone.once("exit", resolve));
    const stale = path.join(hierarchy, `grok-tools-${gone.pid}`);
    mkdirSync(path.join(stale, "shared"), { recursive: true });
    mkdirSync(path.join(stale, sessionGroupName("old")));
    removeStaleGroups(hierarchy);
    expect(existsSync(stale)).toBe(false);
    // Its own group stays (this process runs).
    expect(existsSync(limit.group)).toBe(true);
  });
});
