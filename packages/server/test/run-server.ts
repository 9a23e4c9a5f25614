// Runs the real grok-tools-server command (bin/grok-tools-server.js) as a child process for tests:
// waits for its listening line or its exit, and kills whatever is left at the end of each test.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

export const BIN = path.resolve(import.meta.dirname, "../bin/grok-tools-server.js");

const children: ChildProcess[] = [];
const dirs: string[] = [];

export interface RunningServer {
  child: ChildProcess;
  /** The address of the listening line; rejects when the process exits first. */
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
  });
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
