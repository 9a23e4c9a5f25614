/**
 * The drain after a command exits (issue #19, found by the reliability suite's mixed load, where an
 * `echo` answered with no output): what the command wrote before it exited is read even when the
 * loop was blocked past the drain timeout right after the exit, so that the turn's timers ran
 * before its I/O poll. The command here is a stand-in launch whose output socket and exit the test
 * drives, to put the block exactly there.
 */
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { ProcessIsolation } from "./process-isolation.js";
import { DRAIN_TIMEOUT_MS, RunningProcess } from "./process-runner.js";
import { nextIoTurn } from "./settles-within.js";
import type { LauncherExit, SpareLauncher } from "./spare-launcher.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "gt-drain-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A connected pair of unix stream sockets: [the runner's end, the command's end]. */
async function socketPair(): Promise<[net.Socket, net.Socket]> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(path.join(dir, "s"), resolve));
  const accepted = new Promise<net.Socket>((resolve) => server.once("connection", resolve));
  const theirs = net.connect(path.join(dir, "s"));
  await new Promise((resolve) => theirs.once("connect", resolve));
  const ours = await accepted;
  server.close();
  return [ours, theirs];
}

it("reads what the command wrote before it exited when the loop stalls past the drain timeout", async () => {
  const [ours, theirs] = await socketPair();
  let exit!: (value: LauncherExit) => void;
  const exited = new Promise<LauncherExit>((resolve) => (exit = resolve));
  // A pid no process has (above any pid_max), so that the runner's group kill finds nothing.
  const launch = { marker: "drain-test", pid: 0x3ffffff0, output: ours, exited, start: async () => true };
  const launcher = { take: () => launch, succeeded: () => undefined } as unknown as SpareLauncher;
  const isolation = { mode: "pid-namespace", privateProc: false, exactSignals: true, detail: "test" } as unknown as ProcessIsolation;
  const running = await RunningProcess.start({
    command: "echo drained",
    cwd: dir,
    env: {},
    logFile: path.join(dir, "log"),
    outputLimitChars: 1_000,
    isolation,
    launcher,
  });
  // The runner reads its end from the next poll on, as it reads a command's long before it exits.
  await nextIoTurn();

  // Block the loop right after the runner arms its drain timer, as a burst of spawns does.
  const realSetTimeout = globalThis.setTimeout;
  let blocked = false;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const timer = realSetTimeout(callback, ms, ...args);
    if (ms === DRAIN_TIMEOUT_MS && !blocked) {
      blocked = true;
      const until = Date.now() + DRAIN_TIMEOUT_MS + 500;
      while (Date.now() < until);
    }
    return timer;
  }) as typeof setTimeout;
  try {
    // The command prints, closes its output and exits, all before the loop polls again.
    theirs.write("drained\n");
    theirs.destroy();
    exit({ code: 0, signal: null });
    expect(await running.done).toEqual({ exitCode: 0, signal: null });
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  expect(blocked).toBe(true);
  expect(running.output.text()).toBe("drained\n");
});
