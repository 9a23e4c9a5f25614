/**
 * Unit tests of the runtime's task layer: the head/tail buffer, the child environment,
 * isolation detection, the process runner in both containment modes, and the task
 * manager's ids, limits, waits, kills, eviction and dispose.
 */
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { jest } from "@jest/globals";
import { OutputBuffer, HEAD_TAIL_MARKER } from "./output-buffer.js";
import { SECRET_ENV_NAMES, addSecretEnvNames, childEnvironment } from "./child-env.js";
import { PROCESS_GROUP_ISOLATION, detectProcessIsolation } from "./process-isolation.js";
import { RunningProcess } from "./process-runner.js";
import { TaskManager } from "./task-manager.js";
import { uuidV7 } from "./task-id.js";

jest.setTimeout(30_000);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "gt-tasks-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function alive(marker: string): Promise<number> {
  let count = 0;
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = await readFile(`/proc/${name}/cmdline`, "utf8");
      const stat = await readFile(`/proc/${name}/stat`, "utf8");
      if (cmdline.includes(marker) && !/\) Z /.test(stat)) count++;
    } catch {
      // Gone.
    }
  }
  return count;
}

describe("OutputBuffer", () => {
  it("keeps everything under the limit", () => {
    const b = new OutputBuffer(10);
    b.push(Buffer.from("hello"));
    b.end();
    expect(b.text()).toBe("hello");
    expect(b.truncated).toBe(false);
  });

  it("freezes the head at the first overflow and re-cuts the tail past the limit", () => {
    const b = new OutputBuffer(10);
    b.push(Buffer.from("abcdefghijkl"));
    expect(b.text()).toBe(`abcde${HEAD_TAIL_MARKER}hijkl`);
    b.push(Buffer.from("mn"));
    expect(b.text()).toBe(`abcde${HEAD_TAIL_MARKER}hijklmn`);
    b.push(Buffer.from("opqr"));
    expect(b.text()).toBe(`abcde${HEAD_TAIL_MARKER}nopqr`);
    expect(b.truncated).toBe(true);
  });

  it("counts characters, not bytes, and never splits a code point across chunks", () => {
    const b = new OutputBuffer(4);
    const bytes = Buffer.from("é😀ab");
    b.push(bytes.subarray(0, 3));
    b.push(bytes.subarray(3));
    b.end();
    expect(b.text()).toBe("é😀ab");
    b.push(Buffer.from("c"));
    expect(b.text()).toBe(`é😀${HEAD_TAIL_MARKER}bc`);
  });

  it("keeps only the end of a huge chunk once truncated", () => {
    const b = new OutputBuffer(6);
    b.push(Buffer.from("0123456789"));
    b.push(Buffer.from("x".repeat(100) + "END"));
    expect(b.text()).toBe(`012${HEAD_TAIL_MARKER}END`);
  });
});

describe("child environment", () => {
  it("drops secrets, adds the fixed variables, and accepts more secret names", () => {
    const env = childEnvironment({ EXTRA: "1", GROK_TOOLS_AUTH_TOKEN: "no" }, { PATH: "/bin", GROK_TOOLS_AUTH_TOKEN: "t", GROK_TOOLS_TLS_KEY: "k", MY_KEY_PATH: "p" });
    expect(env).toMatchObject({ PATH: "/bin", TERM: "dumb", NO_COLOR: "1", FORCE_COLOR: "0", GROK_AGENT: "1", PAGER: "cat", GIT_PAGER: "cat", EXTRA: "1", MY_KEY_PATH: "p" });
    expect(env.GROK_TOOLS_AUTH_TOKEN).toBeUndefined();
    expect(env.GROK_TOOLS_TLS_KEY).toBeUndefined();
    addSecretEnvNames("MY_KEY_PATH");
    expect(SECRET_ENV_NAMES.has("MY_KEY_PATH")).toBe(true);
    expect(childEnvironment({}, { MY_KEY_PATH: "p" }).MY_KEY_PATH).toBeUndefined();
  });
});

describe("isolation and the runner", () => {
  it("detects isolation once and describes it", () => {
    const first = detectProcessIsolation();
    expect(detectProcessIsolation()).toBe(first);
    expect(["pid-namespace", "process-group"]).toContain(first.mode);
    expect(first.detail.length).toBeGreaterThan(10);
  });

  it.each([
    ["detected", undefined],
    ["process-group", PROCESS_GROUP_ISOLATION],
  ] as const)("kills the whole tree, setsid descendants included (%s)", async (_name, isolation) => {
    const marker = `rt${process.pid}x${Date.now()}${_name}`;
    const p = await RunningProcess.start({
      command: `(setsid bash -c 'sleep 1000; : ${marker}' &); bash -c 'sleep 1000; : ${marker}'`,
      cwd: dir,
      env: childEnvironment(),
      logFile: path.join(dir, "t", "a.log"),
      outputLimitChars: 100,
      ...(isolation ? { isolation } : {}),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The wrapper's own argv carries the marker in namespace mode, so count at least the two shells.
    expect(await alive(marker)).toBeGreaterThanOrEqual(2);
    const started = Date.now();
    await p.kill();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await alive(marker)).toBe(0);
  });

  it("reports exit codes and signals, and writes the log file capped", async () => {
    const p = await RunningProcess.start({ command: "printf 0123456789; exit 5", cwd: dir, env: childEnvironment(), logFile: path.join(dir, "b.log"), outputLimitChars: 100, logCapBytes: 4 });
    expect(await p.done).toEqual({ exitCode: 5, signal: null });
    expect(p.totalBytes).toBe(10);
    expect(await readFile(path.join(dir, "b.log"), "utf8")).toBe("0123");
    const s = await RunningProcess.start({ command: "kill -9 $BASHPID", cwd: dir, env: childEnvironment(), logFile: path.join(dir, "c.log"), outputLimitChars: 100, isolation: PROCESS_GROUP_ISOLATION });
    expect(await s.done).toEqual({ exitCode: null, signal: "signal 9" });
  });

  it("rejects a command that cannot be spawned", async () => {
    await expect(RunningProcess.start({ command: "true", cwd: path.join(dir, "missing"), env: childEnvironment(), logFile: path.join(dir, "d.log"), outputLimitChars: 10 })).rejects.toThrow();
  });
});

describe("TaskManager", () => {
  const spec = (command: string, name: string) => ({ command, cwd: dir, env: childEnvironment(), logFile: path.join(dir, `${name}.log`), outputLimitChars: 1000, toolCallId: name });

  it("makes UUIDv7 ids", () => {
    expect(uuidV7()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidV7(1000) < uuidV7(2000)).toBe(true);
  });

  it("runs background tasks, waits, kills, evicts to tombstones, and enforces the limit", async () => {
    const m = new TaskManager({ maxRunning: 2, completedTaskTtlMs: 50 });
    const completions: string[] = [];
    m.onCompleted((s) => completions.push(s.taskId));
    const a = await m.startBackground(spec("sleep 1; echo A", "a"));
    const b = await m.startBackground(spec("sleep 1000", "b"));
    await expect(m.startBackground(spec("true", "c"))).rejects.toThrow("too many commands running in this session (limit 2)");
    const snap = await m.waitForCompletion(a.id, 5_000);
    expect(snap).toMatchObject({ taskId: a.id, completed: true, exitCode: 0, output: "A\n", blockWaited: true, isBackgrounded: true });
    expect(await m.kill(b.id)).toBe("killed");
    expect(await m.kill(b.id)).toBe("already_exited");
    expect(await m.kill("nope")).toBe("not_found");
    expect((await m.snapshot(b.id))).toMatchObject({ signal: "cancelled", explicitlyKilled: true, exitCode: null });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(completions.sort()).toEqual([a.id, b.id].sort());
    expect(await m.snapshot(a.id)).toMatchObject({ output: "", truncated: true, completed: true });
    expect(m.knownIds().sort()).toEqual([a.id, b.id].sort());
    await m.dispose();
  });

  it("kills a command whose output passes the kill threshold (signal output_limit)", async () => {
    const m = new TaskManager();
    const r = await m.runForeground({ ...spec("yes", "y"), timeoutMs: 20_000, outputKillBytes: 1_000_000 });
    expect(r.result.signal).toBe("output_limit");
    expect(r.result.totalBytes).toBeGreaterThan(1_000_000);
    await m.dispose();
  });

  it("times out, cancels and auto-backgrounds foreground commands", async () => {
    const m = new TaskManager();
    const timed = await m.runForeground({ ...spec("sleep 1000", "t"), timeoutMs: 200 });
    expect(timed.result).toMatchObject({ signal: "timeout", timedOut: true, exitCode: null });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const cancelled = await m.runForeground({ ...spec("sleep 1000", "c"), timeoutMs: 10_000, signal: controller.signal });
    expect(cancelled.result.signal).toBe("cancelled");
    const auto = await m.runForeground({ ...spec("echo x; sleep 1000", "auto"), timeoutMs: 10_000, autoBackground: { budgetMs: 200 } });
    expect(auto.kind).toBe("backgrounded");
    expect(auto.task.id).toBe("auto");
    expect(m.knownIds()).toEqual(["auto"]);
    await m.dispose();
    expect(auto.task.completed).toBe(true);
    expect(auto.task.signal).toBe("killed");
  });
});
