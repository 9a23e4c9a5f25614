/**
 * A small helper process that forks the sessions' spare launchers, so that the server does
 * not. Forking the server blocks its event loop until the child has exec'd, which costs as
 * long as copying the server's page tables (10-15 ms on a virtual machine with a 150 MB
 * heap): more than running `bash -c true` itself. The helper is a bare Node process with
 * nothing loaded, forks on the other core while the server goes on, hands each launcher's
 * socket back over the IPC channel (SCM_RIGHTS, Node's handle passing) and reports how each
 * launcher exited. It holds no session state: it spawns what it is asked to. One helper
 * serves the whole server process, like the socket-pair listener.
 *
 * When the helper cannot start or dies, launches fail and callers spawn cold: the helper is
 * an accelerator, never a requirement.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Socket } from "node:net";

/** How a launcher's leader ended (node's raw `exit` arguments). */
export interface LauncherExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What the helper should start: argv, cwd and the complete environment. */
export interface HostedSpawnRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
}

/** A process the helper started, in its own process group (`pid` leads it). */
export interface HostedProcess {
  pid: number;
  /** The parent end of the process's stdout, a connected AF_UNIX stream socket (duplex). */
  socket: Socket;
  /** Resolves when the process exits, or with SIGKILL when the helper dies first. */
  exited: Promise<LauncherExit>;
}

/** How long the helper may take to report a launch started. */
export const HOST_REPLY_TIMEOUT_MS = 10_000;

/** Helper (re)starts after which the process stops using it. */
export const MAX_HOST_STARTS = 3;

// The helper's program (CommonJS, run with `node -e`): no file to locate at run time, the
// same from src/ under Jest and from dist/. It exits when the server's channel closes,
// killing the groups of the processes it started that still run. Node does not emit
// 'disconnect' when the channel closes while a handle it sent awaits its acknowledgement (a
// server that died mid-launch), so it also checks the channel and its parent twice a second.
/** @internal Exported for tests. */
export const HOST_SCRIPT = `
"use strict";
process.title = "grok-tools-launcher-host";
const { spawn } = require("node:child_process");
const running = new Map();
process.on("message", (msg) => {
  if (!msg || msg.type !== "spawn") return;
  const id = msg.id;
  let child;
  try {
    child = spawn(msg.file, msg.args, { cwd: msg.cwd, env: msg.env, stdio: ["ignore", "pipe", "ignore"], detached: true });
  } catch (e) {
    process.send({ type: "failed", id, message: String(e && e.message || e) });
    return;
  }
  let started = false;
  child.once("error", (e) => {
    if (!started) process.send({ type: "failed", id, message: String(e && e.message || e) });
  });
  child.once("spawn", () => {
    started = true;
    running.set(id, child.pid);
    process.send({ type: "spawned", id, pid: child.pid }, child.stdout, (error) => {
      if (!error) return;
      try { process.kill(-child.pid, "SIGKILL"); } catch {}
    });
  });
  child.once("exit", (code, signal) => {
    if (!started) return;
    running.delete(id);
    process.send({ type: "exit", id, code, signal });
  });
});
const parent = process.ppid;
const stop = () => {
  for (const pid of running.values()) {
    try { process.kill(-pid, "SIGKILL"); } catch {}
  }
  process.exit(0);
};
process.on("disconnect", stop);
setInterval(() => {
  if (!process.connected || process.ppid !== parent) stop();
}, 500).unref();
`;

type HostReply =
  | { type: "spawned"; id: number; pid: number }
  | { type: "failed"; id: number; message: string }
  | { type: "exit"; id: number; code: number | null; signal: NodeJS.Signals | null };

interface Pending {
  resolveStart: (started: Omit<HostedProcess, "exited"> | undefined) => void;
  resolveExit: (exit: LauncherExit) => void;
  /** Set once the helper reported the process started. */
  pid?: number;
}

/** The helper process and the launches it has in flight. */
export class LauncherHost {
  readonly #nodePath: string;
  #child: ChildProcess | undefined;
  #starts = 0;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  /** Launches whose exit a caller is waiting for: while any, the channel keeps the process alive. */
  #held = 0;

  /** `nodePath`: the Node binary that runs the helper (this process's own by default). */
  constructor(nodePath: string = process.execPath) {
    this.#nodePath = nodePath;
  }

  /** Whether the helper may still be used (it has not failed {@link MAX_HOST_STARTS} times). */
  get usable(): boolean {
    return this.#child !== undefined || this.#starts < MAX_HOST_STARTS;
  }

  /** The helper's pid, when it runs (diagnostics and tests). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Starts `request` in a process group of its own and resolves with it, or with undefined
   * when the helper or the spawn failed (nothing runs then).
   */
  spawn(request: HostedSpawnRequest): Promise<HostedProcess | undefined> {
    const child = this.#ensure();
    if (!child?.connected) return Promise.resolve(undefined);
    const id = this.#nextId++;
    return new Promise((resolveStart) => {
      let resolveExit!: (exit: LauncherExit) => void;
      const exited = new Promise<LauncherExit>((resolve) => (resolveExit = resolve));
      // A helper that never answers (stopped, overloaded) must not hold a call: the launch
      // is then given up, and killed should it start later.
      const timer = setTimeout(() => this.#settle(id), HOST_REPLY_TIMEOUT_MS);
      timer.unref();
      this.#pending.set(id, {
        resolveExit,
        resolveStart: (hosted) => {
          clearTimeout(timer);
          resolveStart(hosted && { ...hosted, exited });
        },
      });
      child.send({ type: "spawn", id, file: request.file, args: request.args, cwd: request.cwd, env: request.env }, (error) => {
        if (error) this.#settle(id);
      });
    });
  }

  /**
   * Keeps the process alive while a caller waits for a launch's exit (an idle spare must
   * not, so the channel is unreferenced otherwise). Returns the release function.
   */
  hold(): () => void {
    let released = false;
    this.#held++;
    this.#child?.channel?.ref();
    return () => {
      if (released) return;
      released = true;
      this.#held--;
      if (this.#held === 0) this.#child?.channel?.unref();
    };
  }

  /** Stops the helper; it kills what it started. */
  dispose(): void {
    const child = this.#child;
    this.#child = undefined;
    this.#starts = MAX_HOST_STARTS;
    if (child?.connected) child.disconnect();
    this.#failAll();
  }

  #ensure(): ChildProcess | undefined {
    if (this.#child) return this.#child;
    if (this.#starts >= MAX_HOST_STARTS) return undefined;
    this.#starts++;
    let child: ChildProcess;
    try {
      // Only PATH: the server's environment (its secrets, NODE_OPTIONS) stays with the server;
      // each launcher gets the environment its request carries.
      child = spawn(this.#nodePath, ["-e", HOST_SCRIPT], { stdio: ["ignore", "ignore", "ignore", "ipc"], env: { PATH: process.env.PATH ?? "" } });
    } catch {
      return undefined;
    }
    this.#child = child;
    child.on("message", (message: HostReply, handle: unknown) => this.#onReply(message, handle));
    // A helper that could not start reports 'error' and never 'exit'.
    const gone = () => {
      if (this.#child === child) this.#child = undefined;
      this.#failAll();
    };
    child.once("error", gone);
    child.once("exit", gone);
    // Idle, the helper must not keep the server alive.
    child.unref();
    if (this.#held === 0) child.channel?.unref();
    return child;
  }

  #onReply(message: HostReply, handle: unknown): void {
    const pending = this.#pending.get(message.id);
    if (!pending) {
      // Given up on (timed out) before it started: it must not run unattended.
      if (message.type === "spawned") {
        try {
          process.kill(-message.pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      (handle as Socket | undefined)?.destroy?.();
      return;
    }
    if (message.type === "spawned") {
      const socket = handle as Socket | undefined;
      if (!socket) {
        this.#settle(message.id);
        return;
      }
      socket.on("error", () => undefined);
      pending.pid = message.pid;
      pending.resolveStart({ pid: message.pid, socket });
    } else if (message.type === "failed") {
      this.#settle(message.id);
    } else {
      this.#pending.delete(message.id);
      pending.resolveExit({ code: message.code, signal: message.signal });
    }
  }

  /**
   * Ends a launch that never started, or one whose helper died: nobody could report its
   * exit any more, so its group is killed and it counts as killed.
   */
  #settle(id: number): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    if (pending.pid === undefined) {
      pending.resolveStart(undefined);
    } else {
      try {
        process.kill(-pending.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    pending.resolveExit({ code: null, signal: "SIGKILL" });
  }

  #failAll(): void {
    for (const id of [...this.#pending.keys()]) this.#settle(id);
  }
}

let shared: LauncherHost | undefined;

/** The process's helper, created on first use and started on the first spawn. */
export function sharedLauncherHost(): LauncherHost {
  shared ??= new LauncherHost();
  return shared;
}
