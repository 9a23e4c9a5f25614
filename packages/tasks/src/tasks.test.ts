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
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { PROCESS_GROUP_ISOLATION, detectProcessIsolation, namespaceIsolation, probeIsolation, type ProcessIsolation } from "./process-isolation.js";
import { MAX_OUTPUT_BYTES_BEFORE_KILL, RunningProcess, maxOutputFileBytes } from "./process-runner.js";
import { SPARE_POOL_SIZE } from "./spare-launcher.js";
import { QUEUE_RETRY_AFTER_MS, TaskManager } from "./task-manager.js";
import { ErrorCode, ToolError } from "@grok-tools/runtime";
import { uuidV7 } from "@grok-tools/runtime/helpers";

jest.setTimeout(30_000);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "gt-tasks-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Polls `check` every 20 ms until it holds or `ms` pass; says whether it held. */
async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

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
    const env = childEnvironment(
      { EXTRA: "1", GROK_TOOLS_AUTH_TOKEN: "no" },
      { PATH: "/bin", GROK_TOOLS_AUTH_TOKEN: "t", GROK_TOOLS_TLS_KEY: "k", MY_CERT_PATH: "p" },
    );
    expect(env).toMatchObject({
      PATH: "/bin",
      TERM: "dumb",
      NO_COLOR: "1",
      FORCE_COLOR: "0",
      GROK_AGENT: "1",
      PAGER: "cat",
      GIT_PAGER: "cat",
      EXTRA: "1",
      MY_CERT_PATH: "p",
    });
    expect(env.GROK_TOOLS_AUTH_TOKEN).toBeUndefined();
    expect(env.GROK_TOOLS_TLS_KEY).toBeUndefined();
    addSecretEnvNames("MY_CERT_PATH");
    expect(SECRET_ENV_NAMES.has("MY_CERT_PATH")).toBe(true);
    expect(childEnvironment({}, { MY_CERT_PATH: "p" }).MY_CERT_PATH).toBeUndefined();
  });

  it("drops the server's variables whose names say they hold a secret, but passes the call's own", () => {
    const base = {
      PATH: "/bin",
      OPENAI_API_KEY: "k",
      GITHUB_TOKEN: "t",
      db_password: "p",
      AWS_SECRET_ACCESS_KEY: "s",
      GOOGLE_APPLICATION_CREDENTIALS: "c",
      HOME: "/root",
    };
    const env = childEnvironment({ GITHUB_TOKEN: "given-by-the-call" }, base);
    expect(
      Object.keys(env)
        .filter((name) => name in base)
        .sort(),
    ).toEqual(["GITHUB_TOKEN", "HOME", "PATH"]);
    expect(env.GITHUB_TOKEN).toBe("given-by-the-call");
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
    // The wrapper's own argv carries the marker in namespace mode, so count at least the two shells
    // (polled: on a busy machine the setsid'd shell can take a while to start).
    expect(await until(async () => (await alive(marker)) >= 2)).toBe(true);
    const started = Date.now();
    await p.kill();
    // Far below the sleeps' 1000 s: the kill did not wait for them (the margin is for busy machines).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await alive(marker)).toBe(0);
  });

  it("reports exit codes and signals, and writes the log file capped", async () => {
    const p = await RunningProcess.start({
      command: "printf 0123456789; exit 5",
      cwd: dir,
      env: childEnvironment(),
      logFile: path.join(dir, "b.log"),
      outputLimitChars: 100,
      logCapBytes: 4,
    });
    expect(await p.done).toEqual({ exitCode: 5, signal: null });
    expect(p.totalBytes).toBe(10);
    expect(await readFile(path.join(dir, "b.log"), "utf8")).toBe("0123");
    const s = await RunningProcess.start({
      command: "kill -9 $BASHPID",
      cwd: dir,
      env: childEnvironment(),
      logFile: path.join(dir, "c.log"),
      outputLimitChars: 100,
      isolation: PROCESS_GROUP_ISOLATION,
    });
    expect(await s.done).toEqual({ exitCode: null, signal: "signal 9" });
  });

  it.each([
    ["detected", undefined],
    ["process-group", PROCESS_GROUP_ISOLATION],
  ] as const)("merges stdout and stderr in write order on one stream, stdin empty (%s)", async (name, isolation) => {
    const p = await RunningProcess.start({
      command: "echo a; echo b >&2; echo c; [ -S /dev/stdout ] && [ -S /dev/stderr ] && echo sockets; cat; echo d >&2",
      cwd: dir,
      env: childEnvironment(),
      logFile: path.join(dir, `m-${name}.log`),
      outputLimitChars: 1000,
      ...(isolation ? { isolation } : {}),
    });
    expect(await p.done).toEqual({ exitCode: 0, signal: null });
    expect(p.output.text()).toBe("a\nb\nc\nsockets\nd\n");
  });

  it("rejects a command that cannot be spawned", async () => {
    await expect(
      RunningProcess.start({
        command: "true",
        cwd: path.join(dir, "missing"),
        env: childEnvironment(),
        logFile: path.join(dir, "d.log"),
        outputLimitChars: 10,
      }),
    ).rejects.toThrow();
  });
});

describe("signals and exit codes (the command is a normal child of an init, not PID 1)", () => {
  const detected = detectProcessIsolation();
  const namespaces = detected.mode === "pid-namespace" && detected.exactSignals;
  const sharedProc = namespaces ? namespaceIsolation({ userNamespace: false, privateProc: false }) : undefined;
  const isolations: Array<[string, ProcessIsolation]> = [
    ["process-group", PROCESS_GROUP_ISOLATION],
    ...(namespaces ? ([["detected", detected]] as Array<[string, ProcessIsolation]>) : []),
    ...(sharedProc && probeIsolation(sharedProc) ? ([["namespace, shared /proc", sharedProc]] as Array<[string, ProcessIsolation]>) : []),
  ];
  if (!namespaces) console.log(`skipping the PID-namespace cases of the signal tests: ${detected.detail}`);

  // [command, exit, output]: what a terminal's bash reports for each.
  const CASES: Array<[string, { exitCode: number | null; signal: string | null }, string]> = [
    ["kill -9 $$; echo survived", { exitCode: null, signal: "signal 9" }, ""],
    ["kill -TERM $$; echo survived", { exitCode: null, signal: "signal 15" }, ""],
    ["kill -INT $$; echo survived", { exitCode: null, signal: "signal 2" }, ""],
    ["kill 0; echo survived", { exitCode: null, signal: "signal 15" }, ""],
    ["kill -9 0; echo survived", { exitCode: null, signal: "signal 9" }, ""],
    ["exit 137", { exitCode: 137, signal: null }, ""],
    ["exit 130", { exitCode: 130, signal: null }, ""],
    ["trap 'echo trapped; exit 3' TERM; kill $$; sleep 5; echo late", { exitCode: 3, signal: null }, "trapped\n"],
    ["sleep 100 & kill $!; wait $!; echo $?", { exitCode: 0, signal: null }, "143\n"],
    ["trap '' TERM; kill $$; echo ignored", { exitCode: 0, signal: null }, "ignored\n"],
    // The group's other members (the init and what leads it) do not die of a signal the shell handles.
    ["trap 'echo usr1' USR1; kill -USR1 0; echo still", { exitCode: 0, signal: null }, "usr1\nstill\n"],
    ["trap 'echo hup' HUP; kill -HUP 0; echo still", { exitCode: 0, signal: null }, "hup\nstill\n"],
  ];

  it.each(isolations.flatMap(([name, isolation]) => CASES.map(([command, exit, output]) => [name, command, isolation, exit, output] as const)))(
    "%s: %s",
    async (_name, command, isolation, exit, output) => {
      const p = await RunningProcess.start({
        command,
        cwd: dir,
        env: childEnvironment(),
        logFile: path.join(dir, "sig.log"),
        outputLimitChars: 1000,
        isolation,
      });
      expect(await p.done).toEqual(exit);
      expect(p.output.text()).toBe(output);
    },
  );

  (namespaces ? it : it.skip)("runs the command as PID 2 under an init that ignores it, reaps orphans and has its own /proc", async () => {
    const command = [
      'echo "pid=$$ ppid=$PPID"',
      "kill -9 1; kill -TERM 1; echo init-alive",
      "(sleep 0.1 &); (sleep 0.1 &); sleep 1",
      "echo zombies=$(cat /proc/[0-9]*/stat 2>/dev/null | grep -c ') Z ')",
      `[ -e /proc/${process.pid} ] && echo server-visible || echo server-hidden`,
      "grep -q grok-tools-init /proc/1/cmdline && echo init-is-ours",
    ].join("\n");
    const p = await RunningProcess.start({ command, cwd: dir, env: childEnvironment(), logFile: path.join(dir, "init.log"), outputLimitChars: 1000 });
    expect(await p.done).toEqual({ exitCode: 0, signal: null });
    expect(p.output.text()).toBe("pid=2 ppid=1\ninit-alive\nzombies=0\nserver-hidden\ninit-is-ours\n");
  });

  // Root (here, or mapped root in a user namespace) may unmount the command's /proc: what is
  // underneath must not be the host's.
  const privateLayouts: Array<[string, ProcessIsolation]> = namespaces
    ? (
        [
          ["plain", namespaceIsolation({ userNamespace: false, privateProc: true })],
          ["user namespace", namespaceIsolation({ userNamespace: true, privateProc: true })],
        ] as Array<[string, ProcessIsolation | undefined]>
      ).filter((entry): entry is [string, ProcessIsolation] => entry[1] !== undefined && probeIsolation(entry[1]))
    : [];
  if (namespaces && privateLayouts.length < 2) console.log(`skipping ${2 - privateLayouts.length} of the private /proc layouts: this host refuses them`);
  (privateLayouts.length > 0 ? it : it.skip)("keeps the server's process out of reach when the command unmounts its /proc", async () => {
    for (const [name, isolation] of privateLayouts) {
      const command = [
        // Only where /proc is already the command's own: elsewhere this would unmount the host's.
        `cd /; [ -e /proc/${process.pid} ] || { umount /proc 2>/dev/null || umount -l /proc 2>/dev/null; }`,
        `[ -e /proc/${process.pid} ] && echo "${name}: server-visible" || echo "${name}: server-hidden"`,
        // A new proc mount shows the namespace of whoever mounts it: still only the command's own.
        `mkdir -p ${dir}/p && mount -t proc proc ${dir}/p 2>/dev/null; ls ${dir}/p | grep -c '^[0-9]' | awk '{ print ($1 < 10) ? "few" : "many" }'; umount ${dir}/p 2>/dev/null; rmdir ${dir}/p`,
      ].join("\n");
      const p = await RunningProcess.start({
        command,
        cwd: dir,
        env: childEnvironment(),
        logFile: path.join(dir, "umount.log"),
        outputLimitChars: 1000,
        isolation,
      });
      expect(await p.done).toEqual({ exitCode: 0, signal: null });
      expect(p.output.text()).toBe(`${name}: server-hidden\nfew\n`);
    }
  });

  (namespaces ? it : it.skip)("reports a signal Node has no name for (above 31) as exit 128+N, never as exit 0", async () => {
    const p = await RunningProcess.start({
      command: "kill -40 $$; echo survived",
      cwd: dir,
      env: childEnvironment(),
      logFile: path.join(dir, "rt.log"),
      outputLimitChars: 100,
    });
    expect(await p.done).toEqual({ exitCode: 168, signal: null });
    expect(p.output.text()).toBe("");
  });

  (namespaces ? it : it.skip)("reports a command's exit code, never a made-up signal, when the init's shell cannot tell kills from exits", async () => {
    const which = (name: string) => execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
    // bash forgets a job once `wait` has collected it, so the init cannot read how it ended.
    const withBash = namespaceIsolation(
      { userNamespace: false, privateProc: true },
      { unshare: which("unshare"), env: which("env"), shell: which("bash"), mount: which("mount"), umount: which("umount") },
    )!;
    expect(probeIsolation(withBash)).toBe(false);
    const p = await RunningProcess.start({
      command: "kill -9 $$",
      cwd: dir,
      env: childEnvironment(),
      logFile: path.join(dir, "bash-init.log"),
      outputLimitChars: 100,
      isolation: withBash,
    });
    expect(await p.done).toEqual({ exitCode: 137, signal: null });
  });
});

describe("TaskManager", () => {
  const spec = (command: string, name: string) => ({
    command,
    cwd: dir,
    env: childEnvironment(),
    logFile: path.join(dir, `${name}.log`),
    outputLimitChars: 1000,
    toolCallId: name,
  });

  it("makes UUIDv7 ids", () => {
    expect(uuidV7()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidV7(1000) < uuidV7(2000)).toBe(true);
  });

  it("runs background tasks, waits, kills and evicts to tombstones", async () => {
    const m = new TaskManager({ completedTaskTtlMs: 50 });
    const completions: string[] = [];
    m.onCompleted((s) => completions.push(s.taskId));
    const a = await m.startBackground(spec("sleep 1; echo A", "a"));
    const b = await m.startBackground(spec("sleep 1000", "b"));
    const snap = await m.waitForCompletion(a.id, 5_000);
    expect(snap).toMatchObject({ taskId: a.id, completed: true, exitCode: 0, output: "A\n", blockWaited: true, isBackgrounded: true });
    expect(await m.kill(b.id)).toBe("killed");
    expect(await m.kill(b.id)).toBe("already_exited");
    expect(await m.kill("nope")).toBe("not_found");
    expect(await m.snapshot(b.id)).toMatchObject({ signal: "cancelled", explicitlyKilled: true, exitCode: null });
    // Both completions reported, and `a` evicted to a tombstone past its 50 ms time to live.
    expect(await until(() => completions.length === 2)).toBe(true);
    expect(completions.sort()).toEqual([a.id, b.id].sort());
    expect(await until(async () => (await m.snapshot(a.id))?.output === "")).toBe(true);
    expect(await m.snapshot(a.id)).toMatchObject({ output: "", truncated: true, completed: true });
    expect(m.knownIds().sort()).toEqual([a.id, b.id].sort());
    await m.dispose();
  });

  it("queues commands beyond the running limit, first come first served, and refuses beyond the queue", async () => {
    const m = new TaskManager({ maxRunning: 2, maxQueued: 2 });
    const a = await m.startBackground(spec("sleep 1000", "qa"));
    const b = await m.startBackground(spec("sleep 1000", "qb"));
    const order: string[] = [];
    const c = m.runForeground({ ...spec("echo C", "qc"), timeoutMs: 20_000 }).then((r) => (order.push("c"), r));
    const d = m.startBackground(spec("echo D", "qd")).then((t) => (order.push("d"), t));
    await new Promise((resolve) => setImmediate(resolve));
    expect([m.runningCount, m.queuedCount]).toEqual([2, 2]);
    const refused = await m.startBackground(spec("true", "qe")).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: ErrorCode.RATE_LIMITED,
      retryable: true,
      message: "Terminal error: too many commands in this session (2 running, 2 waiting to start)",
    });
    expect((refused as ToolError).details).toMatchObject({ retry_after_ms: QUEUE_RETRY_AFTER_MS });
    expect(order).toEqual([]);
    await m.kill(a.id);
    expect((await c).result).toMatchObject({ exitCode: 0, output: "C\n" });
    await m.kill(b.id);
    const dTask = await d;
    expect(order).toEqual(["c", "d"]);
    expect(await m.waitForCompletion(dTask.id, 10_000)).toMatchObject({ exitCode: 0, output: "D\n" });
    expect([m.runningCount, m.queuedCount]).toEqual([0, 0]);
    await m.dispose();
  });

  it("ends a queued command's wait at its timeout, the queue's limit, a cancel, or the session's close", async () => {
    const m = new TaskManager({ maxRunning: 1, maxQueueWaitMs: 300 });
    await m.startBackground(spec("sleep 1000", "wa"));
    // Its own timeout first: the command did not start in time.
    await expect(m.runForeground({ ...spec("true", "wb"), timeoutMs: 100 })).rejects.toMatchObject({ code: ErrorCode.TIMEOUT, retryable: true });
    // The queue's limit first: refused for lack of room, retryable.
    await expect(m.runForeground({ ...spec("true", "wc"), timeoutMs: 60_000 })).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, retryable: true });
    const controller = new AbortController();
    const cancelled = m.startBackground({ ...spec("true", "wd"), signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    expect(m.queuedCount).toBe(1);
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ code: ErrorCode.CANCELLED });
    expect(m.queuedCount).toBe(0);
    const pending = m.startBackground(spec("true", "we")).catch((e: unknown) => e);
    await new Promise((resolve) => setImmediate(resolve));
    await m.dispose();
    expect(await pending).toMatchObject({ code: ErrorCode.EXECUTION_FAILED, message: "Terminal error: the session is closing" });
    expect(m.runningCount).toBe(0);
  });

  it("does not start a command cancelled before it reached a free place, nor let it hold the place", async () => {
    const m = new TaskManager({ maxRunning: 1 });
    const marker = path.join(dir, "ran-after-cancel");
    const controller = new AbortController();
    controller.abort();
    for (const start of [
      () => m.runForeground({ ...spec(`touch ${marker}`, "ca"), timeoutMs: 20_000, signal: controller.signal }),
      () => m.startBackground({ ...spec(`touch ${marker}`, "cb"), signal: controller.signal }),
    ]) {
      await expect(start()).rejects.toMatchObject({ code: ErrorCode.CANCELLED, message: "Terminal error: the command was cancelled before it started" });
      expect([m.runningCount, m.queuedCount]).toEqual([0, 0]);
    }
    // The place is still free for the next command.
    expect((await m.runForeground({ ...spec("echo next", "cc"), timeoutMs: 20_000 })).result).toMatchObject({ exitCode: 0, output: "next\n" });
    expect(existsSync(marker)).toBe(false);
    await m.dispose();
  });

  it("kills a command whose output passes the kill threshold (signal output_limit)", async () => {
    const m = new TaskManager();
    const r = await m.runForeground({ ...spec("yes", "y"), timeoutMs: 20_000, outputKillBytes: 1_000_000 });
    expect(r.result.signal).toBe("output_limit");
    expect(r.result.totalBytes).toBeGreaterThan(1_000_000);
    await m.dispose();
  });

  it("takes the kill threshold from GROK_MAX_OUTPUT_FILE_BYTES when it is a whole number above zero", async () => {
    expect(maxOutputFileBytes({})).toBe(MAX_OUTPUT_BYTES_BEFORE_KILL);
    expect(maxOutputFileBytes({ GROK_MAX_OUTPUT_FILE_BYTES: " 2048 " })).toBe(2048);
    for (const raw of ["0", "-5", "1e6", "12 KB", ""]) expect(maxOutputFileBytes({ GROK_MAX_OUTPUT_FILE_BYTES: raw })).toBe(MAX_OUTPUT_BYTES_BEFORE_KILL);
    const saved = process.env.GROK_MAX_OUTPUT_FILE_BYTES;
    process.env.GROK_MAX_OUTPUT_FILE_BYTES = "1000000";
    const m = new TaskManager();
    try {
      const r = await m.runForeground({ ...spec("yes", "y-env"), timeoutMs: 20_000 });
      expect(r.result.signal).toBe("output_limit");
      expect(r.result.totalBytes).toBeGreaterThan(1_000_000);
    } finally {
      if (saved === undefined) delete process.env.GROK_MAX_OUTPUT_FILE_BYTES;
      else process.env.GROK_MAX_OUTPUT_FILE_BYTES = saved;
      await m.dispose();
    }
  });

  it("says how a wait ended: completed, timed out or aborted, whatever the clock reads", async () => {
    const m = new TaskManager();
    const quick = await m.startBackground(spec("true", "w-quick"));
    const slow = await m.startBackground(spec("sleep 1000", "w-slow"));
    // Only `quick`: waits are for the tasks still running, so had it finished before the call,
    // a wait on both would be a wait on `slow` alone (spec: wait_any waits for the first pending one).
    expect(await m.waitForAny([quick.id], 10_000)).toBe("completed");
    for (let i = 0; i < 20; i++) expect(await m.waitForAll([quick.id, slow.id], 5)).toBe("timed_out");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect(await m.waitForAll([slow.id], 10_000, controller.signal)).toBe("aborted");
    await m.dispose();
  });

  it("ends a wait only after the completion was reported", async () => {
    const m = new TaskManager();
    const seen: string[] = [];
    m.onCompleted((snapshot) => seen.push(`listener:${snapshot.taskId}`));
    for (let i = 0; i < 10; i++) {
      const task = await m.startBackground({ ...spec("echo x", `r${i}`), notify: (n: { type: string }) => void seen.push(`${n.type}:${task.id}`) });
      const wait = i % 2 === 0 ? m.waitForAll([task.id], 10_000) : m.waitForAny([task.id], 10_000);
      expect(await wait).toBe("completed");
      expect(seen).toContain(`TaskCompleted:${task.id}`);
      expect(seen).toContain(`listener:${task.id}`);
    }
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

describe("spare launcher", () => {
  const namespaces = detectProcessIsolation().mode === "pid-namespace";
  const spec = (command: string, name: string, env: Record<string, string> = childEnvironment()) => ({
    command,
    cwd: dir,
    env,
    logFile: path.join(dir, `${name}.log`),
    outputLimitChars: 10_000,
    toolCallId: name,
    timeoutMs: 10_000,
  });

  /** Whether `pid` is a live (non-zombie) process. */
  async function running(pid: number): Promise<boolean> {
    try {
      return !/\) Z /.test(await readFile(`/proc/${pid}/stat`, "utf8"));
    } catch {
      return false;
    }
  }

  // Everything a command can observe about how it was started, except the per-process marker's value.
  const PROBE = [
    'echo "$0|$$|$PPID|$(pwd)|$SHLVL|$-"',
    "env | grep -v '^GROK_TOOLS_PROCESS_MARKER=' | sort | cksum",
    // The shell's descriptors, listed while it waits for a subshell, and the signal state a
    // command it runs starts with: a pipeline here would catch the shell mid-fork (its pipe
    // ends open, signals blocked), which varies from run to run.
    "(cd /proc/$$/fd && echo *)",
    "grep -E '^Sig(Blk|Ign)' /proc/self/status",
    "echo to-stderr >&2",
    'read -r line; echo "stdin=$?"',
    '[ -n "$GROK_TOOLS_PROCESS_MARKER" ] && echo marker',
    "exit 3",
  ].join("\n");

  it("runs a foreground command in the pre-started launcher exactly as a cold spawn would", async () => {
    const m = new TaskManager();
    const cold = await m.runForeground(spec(PROBE, "p1"));
    expect(cold.result.exitCode).toBe(3);
    expect(cold.result.output).toContain("to-stderr\nstdin=1\nmarker\n");
    if (!namespaces) {
      expect(m.spareLauncher.idlePid).toBeUndefined();
      await m.dispose();
      return;
    }
    expect(await until(() => m.spareLauncher.idlePid !== undefined)).toBe(true);
    const idle = m.spareLauncher.idlePid!;
    const warm = await m.runForeground(spec(PROBE, "p2"));
    expect(warm.result.pid).toBe(idle);
    expect(warm.result).toMatchObject({ exitCode: 3, signal: null, output: cold.result.output, totalBytes: cold.result.totalBytes });
    expect(await readFile(path.join(dir, "p2.log"), "utf8")).toBe(cold.result.output);
    // The command travels as data: quotes, backslashes, `$(`, blank and space-only lines,
    // tabs, CR, non-ASCII and a trailing newline arrive intact.
    const text = "a 'q' \"d\" \\n $(x) `y` ${z}\n\n   \n\tt\r\né😀 end  ";
    expect(await until(() => m.spareLauncher.idlePid !== undefined)).toBe(true);
    const second = m.spareLauncher.idlePid!;
    const tricky = await m.runForeground(spec(`cat <<'GROK_EOF'\n${text}\nGROK_EOF\n`, "p3"));
    expect(tricky.result).toMatchObject({ pid: second, exitCode: 0, output: `${text}\n` });
    // Closing the session kills the idle spare and makes no more.
    expect(await until(() => m.spareLauncher.idlePid !== undefined)).toBe(true);
    const next = m.spareLauncher.idlePid!;
    expect(next).not.toBe(second);
    await m.dispose();
    expect(await until(async () => !(await running(next)))).toBe(true);
    expect(m.spareLauncher.idlePid).toBeUndefined();
  });

  it("rebuilds the spare when the environment changes and spawns cold when it died", async () => {
    const m = new TaskManager();
    await m.runForeground(spec("true", "e0"));
    if (!namespaces) {
      expect(m.spareLauncher.idlePid).toBeUndefined();
      await m.dispose();
      return;
    }
    expect(await until(() => m.spareLauncher.idlePid !== undefined)).toBe(true);
    const first = m.spareLauncher.idlePid!;
    const changed = await m.runForeground(spec('echo "extra=$EXTRA"', "e1", { ...childEnvironment(), EXTRA: "1" }));
    expect(changed.result.output).toBe("extra=1\n");
    expect(changed.result.pid).not.toBe(first);
    expect(await until(async () => !(await running(first)))).toBe(true);
    // The spares now match the new environment; killed from outside, they are replaced by a cold spawn.
    expect(await until(() => m.spareLauncher.idlePids.length === SPARE_POOL_SIZE)).toBe(true);
    const killed = m.spareLauncher.idlePids;
    for (const pid of killed) process.kill(-pid, "SIGKILL");
    expect(await until(async () => !(await Promise.all(killed.map(running))).some(Boolean))).toBe(true);
    const after = await m.runForeground(spec('echo "extra=$EXTRA"', "e2", { ...childEnvironment(), EXTRA: "1" }));
    expect(after.result).toMatchObject({ output: "extra=1\n", exitCode: 0 });
    expect(killed).not.toContain(after.result.pid);
    await m.dispose();
  });

  it("spawns cold, passing them through, for environments that sh would alter", async () => {
    const env = { ...childEnvironment(), "odd-name": "1" };
    // The namespace wrapper execs the shell directly; the process-group fallback goes through sh.
    const expected = namespaces ? "odd-name=1\n" : "";
    const m = new TaskManager();
    const first = await m.runForeground(spec("env | grep '^odd-name='", "o1", env));
    expect(first.result.output).toBe(expected);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(m.spareLauncher.idlePid).toBeUndefined();
    const second = await m.runForeground(spec("env | grep '^odd-name='", "o2", env));
    expect(second.result.output).toBe(expected);
    await m.dispose();
  });

  it("kills the whole tree of a command started warm, setsid descendants included", async () => {
    const m = new TaskManager();
    await m.runForeground(spec("true", "w0"));
    const idle = namespaces && (await until(() => m.spareLauncher.idlePid !== undefined)) ? m.spareLauncher.idlePid : undefined;
    expect(idle !== undefined).toBe(namespaces);
    const marker = `warm${process.pid}x${Date.now()}`;
    const started = Date.now();
    const r = await m.runForeground({ ...spec(`(setsid bash -c 'sleep 1000; : ${marker}' &); bash -c 'sleep 1000; : ${marker}'`, "w1"), timeoutMs: 500 });
    expect(r.result).toMatchObject({ signal: "timeout", timedOut: true, exitCode: null });
    if (idle !== undefined) expect(r.result.pid).toBe(idle);
    // The 500 ms timeout, then the kill of the whole tree: far below the sleeps' 1000 s.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await alive(marker)).toBe(0);
    await m.dispose();
  });

  it("starts back-to-back commands warm: each command launched is replaced at once", async () => {
    const m = new TaskManager();
    await m.runForeground(spec("true", "b0"));
    if (!namespaces) {
      await m.dispose();
      return;
    }
    expect(await until(() => m.spareLauncher.idlePids.length === SPARE_POOL_SIZE)).toBe(true);
    const before = m.spareLauncher.warmStarts;
    const pids = new Set<number>();
    for (let i = 1; i <= 6; i++) {
      const r = await m.runForeground(spec(`echo ${i}`, `b${i}`));
      expect(r.result).toMatchObject({ output: `${i}\n`, exitCode: 0 });
      pids.add(r.result.pid!);
    }
    expect(m.spareLauncher.warmStarts - before).toBe(6);
    expect(pids.size).toBe(6);
    await m.dispose();
  });

  it("reports signal deaths and exit codes of warm commands and background tasks as cold ones", async () => {
    const m = new TaskManager();
    const cases: Array<[string, number | null, string | null, string]> = [
      ["kill -9 $$", null, "signal 9", ""],
      ["kill -TERM $$", null, "signal 15", ""],
      ["kill 0", null, "signal 15", ""],
      ["exit 137", 137, null, ""],
      ["sleep 100 & kill $!; wait $!; echo $?", 0, null, "143\n"],
    ];
    await m.runForeground(spec("true", "k0"));
    for (const [i, [command, exitCode, signal, output]] of cases.entries()) {
      const idle = namespaces && (await until(() => m.spareLauncher.idlePid !== undefined)) ? m.spareLauncher.idlePid : undefined;
      expect(idle !== undefined).toBe(namespaces);
      const fg = await m.runForeground(spec(command, `k${i + 1}`));
      if (idle !== undefined) expect(fg.result.pid).toBe(idle);
      expect(fg.result).toMatchObject({ exitCode, signal, output });
      const bg = await m.startBackground(spec(command, `kb${i + 1}`));
      expect(await m.waitForCompletion(bg.id, 10_000)).toMatchObject({ completed: true, exitCode, signal, output });
    }
    await m.dispose();
  });

  it("never shares a spare between sessions", async () => {
    const a = new TaskManager();
    const b = new TaskManager();
    await a.runForeground(spec("true", "s1"));
    await b.runForeground(spec("true", "s2"));
    if (!namespaces) {
      expect([a.spareLauncher.idlePid, b.spareLauncher.idlePid]).toEqual([undefined, undefined]);
    } else {
      expect(await until(() => a.spareLauncher.idlePid !== undefined && b.spareLauncher.idlePid !== undefined)).toBe(true);
      const bSpare = b.spareLauncher.idlePid!;
      expect(a.spareLauncher.idlePid).not.toBe(bSpare);
      await a.dispose();
      expect(await running(bSpare)).toBe(true);
      expect((await b.runForeground(spec("true", "s3"))).result.pid).toBe(bSpare);
    }
    await a.dispose();
    await b.dispose();
  });
});
