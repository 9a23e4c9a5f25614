// Runs the real grok-tools-server command (bin/grok-tools-server.js) as a child process for tests:
// waits for its listening line or its exit, and kills whatever is left at the end of each test.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

export const BIN = path.resolve(import.meta.dirname, "../bin/grok-tools-server.js");
/**
 * How long `listening` waits for the listening line: a Node start, module loading and the first
 * bind take seconds on a machine shared with other builds, far more than on an idle one.
 */
export const STARTUP_TIMEOUT_MS = 60_000;
/** Jest timeout of a test that starts servers: above {@link STARTUP_TIMEOUT_MS}, so that its message wins. */
export const SERVER_TEST_TIMEOUT_MS = 2 * STARTUP_TIMEOUT_MS;

const children: ChildProcess[] = [];
const dirs: string[] = [];

export interface RunningServer {
  child: ChildProcess;
  /** The address of the listening line; rejects when the process exits first or after {@link STARTUP_TIMEOUT_MS}. */
  listening: Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout: () => string;
  stderr: () => string;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** Written to the server's stdin, which is then closed (stdin is /dev/null without it). */
  stdin?: string;
  cwd?: string;
  /** Run this file instead of the server's bin (a path to a script or an executable). */
  command?: string[];
  uid?: number;
  gid?: number;
}

/** Starts `node bin/grok-tools-server.js ...args`. */
export function startServer(args: string[], options: StartOptions = {}): RunningServer {
  const [file, ...prefix] = options.command ?? [process.execPath, BIN];
  const child = spawn(file!, [...prefix, ...args], {
    stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    env: options.env ?? process.env,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.uid === undefined ? {} : { uid: options.uid }),
    ...(options.gid === undefined ? {} : { gid: options.gid }),
  });
  children.push(child);
  if (options.stdin !== undefined) {
    child.stdin!.on("error", () => undefined);
    child.stdin!.end(options.stdin);
  }
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  let startupTimer: NodeJS.Timeout | undefined;
  const listening = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      stdout += `${line}\n`;
      try {
        const event = JSON.parse(line) as { event?: string; address?: string };
        if (event.event === "listening" && typeof event.address === "string") resolve(event.address);
      } catch {
        // Not a JSON line (a script's own output).
      }
    });
    void exited.then(({ code, signal }) => reject(new Error(`exited ${signal ?? code} before listening; stdout=${stdout} stderr=${stderr}`)));
    startupTimer = setTimeout(
      () => reject(new Error(`no listening line within ${STARTUP_TIMEOUT_MS / 1000} s; stdout=${stdout} stderr=${stderr}`)),
      STARTUP_TIMEOUT_MS,
    );
    // The bound never keeps the test process alive by itself.
    startupTimer.unref();
  });
  // Whichever settles the wait first (the line, the exit, the bound) ends the timer.
  void listening.finally(() => clearTimeout(startupTimer)).catch(() => undefined);
  listening.catch(() => undefined);
  return { child, listening, exited, stdout: () => stdout, stderr: () => stderr };
}

/** A temp folder removed after the test. */
export function tempDir(prefix = "grok-cli-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** Kills the servers and removes the folders of the test (call from afterEach). */
export function cleanUp(): void {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
