// Runs `grok-tools-server` as a child process for tests and embedding hosts: starts it on a
// free port or a unix socket, waits for its listening line, and stops it. It never imports the server.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { createToolsClient, type ToolsClient, type ToolsClientOptions } from "./client.js";

/** Name of the server's command. */
export const SERVER_COMMAND = "grok-tools-server";
/**
 * How long spawnServer waits for the listening line by default: a Node start, module loading and
 * the first bind take seconds on a machine shared with builds and other servers (20 s was too
 * short there). A server that fails exits, which ends the wait at once, so only a hung one waits this long.
 */
export const DEFAULT_STARTUP_TIMEOUT_MS = 60_000;
/** How long close() waits after SIGTERM before it sends SIGKILL. */
export const DEFAULT_STOP_TIMEOUT_MS = 5_000;
/** How much of the server's stderr is kept for error messages. */
const STDERR_TAIL_BYTES = 16 * 1024;
const UNIX_SOCKET_NAME = "grok-tools.sock";

/** Options of spawnServer. */
export interface SpawnServerOptions {
  /** The workspace folder the server works in (`--workspace`). */
  workspace: string;
  /** Extra arguments for the server command. */
  args?: string[];
  /** `--state-dir`; the server's default when omitted. */
  stateDir?: string;
  /**
   * Where to listen: `"tcp"` (default, 127.0.0.1 on a free port), `"unix"` (a socket in a new
   * temp folder, removed on close), or an explicit `host:port` / `unix:/path`.
   */
  listen?: "tcp" | "unix" | string;
  /**
   * The server command: a path or a name looked up in PATH. A `.js` file runs with this Node.
   * Default: {@link findServerCommand} from the current directory.
   */
  command?: string;
  /**
   * Bearer token: handed to the server on its stdin (`--auth-token-file -`), so it never shows in
   * the server's arguments or environment, and used by the client.
   */
  authToken?: string;
  /** Environment of the server (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
  /** Milliseconds to wait for the listening line (default {@link DEFAULT_STARTUP_TIMEOUT_MS}, 60 s). */
  startupTimeoutMs?: number;
  /** Called with every chunk the server writes to stderr (its JSON log). */
  onStderr?: (text: string) => void;
  /** Options for the client, besides address and authToken. */
  client?: Omit<ToolsClientOptions, "address" | "authToken">;
}

/** A running server and a client connected to it. */
export interface SpawnedServer {
  client: ToolsClient;
  /** The bound address the server reported (`127.0.0.1:PORT` or `unix:/path`). */
  address: string;
  process: ChildProcess;
  /** Closes the client, sends SIGTERM, waits for exit (SIGKILL after 5 s), removes the temp socket folder. */
  close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Finds the server command: `node_modules/.bin/grok-tools-server` in `startDir` or any parent
 * folder, else the bare name (resolved through PATH when spawned).
 */
export function findServerCommand(startDir: string = process.cwd()): string {
  let dir = path.resolve(startDir);
  for (;;) {
    const candidate = path.join(dir, "node_modules", ".bin", SERVER_COMMAND);
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return SERVER_COMMAND;
    dir = parent;
  }
}

type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** Starts `grok-tools-server` and resolves once it listens; rejects with its stderr when it does not. */
export async function spawnServer(options: SpawnServerOptions): Promise<SpawnedServer> {
  let socketDir: string | undefined;
  let listen = options.listen ?? "tcp";
  if (listen === "tcp") listen = "127.0.0.1:0";
  if (listen === "unix") {
    // A short folder under the temp dir: socket paths longer than 107 bytes get truncated by libuv.
    socketDir = await mkdtemp(path.join(tmpdir(), "gts-"));
    listen = `unix:${path.join(socketDir, UNIX_SOCKET_NAME)}`;
  }
  const command = options.command ?? findServerCommand();
  const args = ["--listen", listen, "--workspace", options.workspace];
  if (options.stateDir !== undefined) args.push("--state-dir", options.stateDir);
  if (options.authToken !== undefined) args.push("--auth-token-file", "-");
  args.push(...(options.args ?? []));
  const runsWithNode = /\.[cm]?js$/.test(command);
  const child = spawn(runsWithNode ? process.execPath : command, runsWithNode ? [command, ...args] : args, {
    env: { ...(options.env ?? process.env) },
    stdio: [options.authToken === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  if (options.authToken !== undefined) {
    // A server that exits before reading its stdin must not crash us with EPIPE.
    child.stdin!.on("error", () => undefined);
    child.stdin!.end(`${options.authToken}\n`);
  }

  let stderr = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (text: string) => {
    stderr = (stderr + text).slice(-STDERR_TAIL_BYTES);
    options.onStderr?.(text);
  });
  const exited = new Promise<Exit>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const cleanup = async () => {
    if (socketDir) await rm(socketDir, { recursive: true, force: true });
  };

  let address: string;
  try {
    address = await waitForListening(child, exited, options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS, command, () => stderr);
  } catch (error) {
    await stop(child, exited);
    await cleanup();
    throw error;
  }
  const client = createToolsClient({ ...options.client, address, ...(options.authToken === undefined ? {} : { authToken: options.authToken }) });
  let closing: Promise<Exit> | undefined;
  return {
    client,
    address,
    process: child,
    close: () => {
      closing ??= (async () => {
        client.close();
        const exit = await stop(child, exited);
        await cleanup();
        return exit;
      })();
      return closing;
    },
  };
}

function waitForListening(child: ChildProcess, exited: Promise<Exit>, timeoutMs: number, command: string, stderr: () => string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const tail = () => (stderr().trim() ? `\nserver stderr:\n${stderr().trim()}` : " (it wrote nothing to stderr)");
    const finish = (error: Error | undefined, address?: string) => {
      clearTimeout(timer);
      lines.removeAllListeners("line");
      // Keep draining stdout so the child never blocks on a full pipe.
      child.stdout!.resume();
      if (error) reject(error);
      else resolve(address!);
    };
    const timer = setTimeout(() => finish(new Error(`${command} did not report {"event":"listening"} within ${timeoutMs} ms.${tail()}`)), timeoutMs);
    child.on("error", (error) => finish(new Error(`Cannot start ${command}: ${error.message}. Install @grok-tools/server or pass the command option.`)));
    void exited.then(({ code, signal }) => finish(new Error(`${command} exited (${signal ?? `code ${code}`}) before it was listening.${tail()}`)));
    lines.on("line", (line) => {
      let event: unknown;
      try {
        event = JSON.parse(line);
      } catch {
        return;
      }
      const { event: name, address } = (event ?? {}) as { event?: unknown; address?: unknown };
      if (name === "listening" && typeof address === "string") finish(undefined, address);
    });
  });
}

async function stop(child: ChildProcess, exited: Promise<Exit>): Promise<Exit> {
  // A command that could not be spawned has no pid and may never emit "exit".
  if (child.pid === undefined) return { code: null, signal: null };
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const forced = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve();
    }, DEFAULT_STOP_TIMEOUT_MS);
  });
  await Promise.race([exited, forced]);
  clearTimeout(timer);
  return exited;
}
