/**
 * The session's task manager: runs shell commands as tracked tasks (foreground, background,
 * auto-backgrounded), answers snapshots and waits, kills on request, evicts completed tasks
 * to small tombstones after a while (the log file stays), and kills everything when the
 * session closes. Formatting for the model lives in the tools, not here.
 */
import { readFile } from "node:fs/promises";
import { open } from "node:fs/promises";
import { ErrorCode, ToolError, defineService, type Logger, type SessionHandle, type ToolNotification } from "@grok-tools/runtime";
import { silentLogger } from "@grok-tools/runtime/helpers";
import { RunningProcess, type ProcessExit } from "./process-runner.js";
import { detectProcessIsolation, type ProcessIsolation } from "./process-isolation.js";
import { processLimit as serverProcessLimit, type SessionProcessLimit } from "./process-limit.js";
import { SpareLauncher } from "./spare-launcher.js";
import { uuidV7 } from "@grok-tools/runtime/helpers";
import { SubagentCoordinator } from "./subagent-coordinator.js";

/** Completed background tasks stay whole this long, then shrink to a tombstone. */
export const COMPLETED_TASK_TTL_MS = 5 * 60_000;
/** Tombstones kept per session (oldest dropped first). */
export const MAX_TASK_TOMBSTONES = 100;
/** Background tasks are killed after this long (`max_runtime`). */
export const BACKGROUND_MAX_RUNTIME_MS = 36_000_000;
/** Commands running at once in one session; more wait in the session's queue. */
export const MAX_RUNNING_TASKS_PER_SESSION = 64;
/** Commands that may wait to start in one session; one more is refused (RATE_LIMITED). */
export const MAX_QUEUED_TASKS_PER_SESSION = 1024;
/** The longest a command waits in the queue before it is refused (RATE_LIMITED, retryable). */
export const MAX_QUEUE_WAIT_MS = 120_000;
/** The retry delay suggested to a caller whose command was refused for lack of room. */
export const QUEUE_RETRY_AFTER_MS = 1_000;
/** A completed task's snapshot reads at most this much of its log file. */
export const MAX_SNAPSHOT_BYTES = 1024 * 1024;
/** Interval of `BashOutputChunk` notifications. */
export const OUTPUT_NOTIFY_INTERVAL_MS = 100;

/** Why the manager ended a command; becomes the task's `signal`. */
export type KillReason = "timeout" | "cancelled" | "max_runtime" | "output_limit" | "killed";

/** A point-in-time view of a task (the reference's `TaskSnapshot`). */
export interface TaskSnapshot {
  taskId: string;
  kind: "bash";
  command: string;
  displayCommand?: string;
  cwd: string;
  description?: string;
  startTime: Date;
  endTime?: Date;
  /** Held output: head/tail while running, the log's first MiB once a background task completed. */
  output: string;
  outputFile: string;
  truncated: boolean;
  outputTotalBytes: number;
  exitCode: number | null;
  signal: string | null;
  completed: boolean;
  blockWaited: boolean;
  explicitlyKilled: boolean;
  isBackgrounded: boolean;
  pid?: number;
}

/** Result of {@link TaskManager.kill}. */
export type KillOutcome = "killed" | "already_exited" | "not_found";

/** What to run. */
export interface CommandSpec {
  /** The command as run (after any prefix). */
  command: string;
  /** The command as the model wrote it (notifications, snapshots). */
  displayCommand?: string;
  cwd: string;
  env: Record<string, string>;
  logFile: string;
  outputLimitChars: number;
  description?: string;
  /** The call that started it (notifications). */
  toolCallId: string;
  /** Where this task's notifications go. */
  notify?: (notification: ToolNotification) => void;
  isolation?: ProcessIsolation;
  shell?: string;
  logCapBytes?: number;
  outputKillBytes?: number;
  /** Aborting ends the call: a queued command leaves the queue, a foreground one is killed. */
  signal?: AbortSignal;
  /** Receives each chunk of output as it is read (live output of a streaming call); must not throw. */
  onOutput?: (chunk: Buffer) => void;
}

/** A foreground run's options. */
export interface ForegroundSpec extends CommandSpec {
  /** Kill (or auto-background) deadline. */
  timeoutMs: number;
  /** When set, the command moves to the background after `min(budgetMs, timeoutMs)` instead of being killed. */
  autoBackground?: { budgetMs: number };
}

/** How a foreground run ended. */
export type ForegroundOutcome = { kind: "completed"; task: ProcessTask; result: TaskResult } | { kind: "backgrounded"; task: ProcessTask; result: TaskResult };

/** Output and status of a finished (or just backgrounded) foreground command. */
export interface TaskResult {
  output: string;
  truncated: boolean;
  totalBytes: number;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  pid?: number;
}

/** One command under the manager's control. */
export class ProcessTask {
  readonly id: string;
  readonly spec: CommandSpec;
  readonly process: RunningProcess;
  readonly startTime = new Date();
  endTime: Date | undefined;
  isBackgrounded: boolean;
  explicitlyKilled = false;
  blockWaited = false;
  /** Resolves when the command and its tree are gone and the log is flushed. */
  readonly completion: Promise<void>;
  /**
   * Resolves once the completion is also reported (TaskCompleted notification, completion
   * listeners) for a background task; waits end here, so a wait that returns a completed
   * task never gets ahead of its notification.
   */
  reported: Promise<void>;
  #exit: ProcessExit | undefined;
  #killReason: KillReason | undefined;
  #timers: NodeJS.Timeout[] = [];
  #onBackground: Array<() => void> = [];
  #lastNotifiedBytes = 0;

  constructor(id: string, spec: CommandSpec, process: RunningProcess, background: boolean) {
    this.id = id;
    this.spec = spec;
    this.process = process;
    this.isBackgrounded = background;
    this.completion = process.done
      .then(
        (exit) => {
          this.#exit = exit;
        },
        () => {
          this.#exit = { exitCode: null, signal: "error" };
        },
      )
      .finally(() => {
        this.endTime = new Date();
        for (const timer of this.#timers) clearInterval(timer);
        this.#timers = [];
        this.#sendChunk();
      });
    this.reported = this.completion;
    if (spec.notify) {
      const ticker = setInterval(() => this.#sendChunk(), OUTPUT_NOTIFY_INTERVAL_MS);
      ticker.unref();
      this.#timers.push(ticker);
    }
  }

  get completed(): boolean {
    return this.endTime !== undefined;
  }

  /** The task's `signal`: the manager's kill reason, else the process's own. */
  get signal(): string | null {
    return this.#killReason ?? this.#exit?.signal ?? null;
  }

  get exitCode(): number | null {
    return this.#killReason ? null : (this.#exit?.exitCode ?? null);
  }

  /** Runs `fn` after `ms` unless the task completed first. */
  after(ms: number, fn: () => void): void {
    if (!Number.isFinite(ms) || this.completed) return;
    const timer = setTimeout(fn, Math.min(Math.max(0, ms), 2 ** 31 - 1));
    timer.unref();
    this.#timers.push(timer);
  }

  /** Kills the tree and records why; resolves once it is gone. */
  async kill(reason: KillReason): Promise<void> {
    if (!this.completed && !this.process.exited) this.#killReason ??= reason;
    await this.process.kill();
    await this.completion;
  }

  /** Moves a foreground task to the background (auto-background at its deadline). */
  moveToBackground(): void {
    if (this.isBackgrounded || this.completed) return;
    this.isBackgrounded = true;
    for (const listener of this.#onBackground.splice(0)) listener();
  }

  /** Resolves when the task is moved to the background. */
  whenBackgrounded(): Promise<void> {
    if (this.isBackgrounded) return Promise.resolve();
    return new Promise((resolve) => this.#onBackground.push(resolve));
  }

  /** The foreground result as of now. */
  result(): TaskResult {
    return {
      output: this.process.output.text(),
      truncated: this.process.output.truncated,
      totalBytes: this.process.totalBytes,
      exitCode: this.exitCode,
      signal: this.signal,
      timedOut: this.signal === "timeout",
      ...(this.process.pid === undefined ? {} : { pid: this.process.pid }),
    };
  }

  #sendChunk(): void {
    const notify = this.spec.notify;
    const total = this.process.totalBytes;
    if (!notify || total <= this.#lastNotifiedBytes) return;
    this.#lastNotifiedBytes = total;
    notify({
      type: "BashOutputChunk",
      tool_call_id: this.spec.toolCallId,
      command: this.spec.displayCommand ?? this.spec.command,
      output: Buffer.from(this.process.output.tail, "utf8").toString("base64"),
      total_bytes: total,
      truncated: this.process.output.truncated,
      cwd: this.spec.cwd,
    });
  }
}

interface ManagerOptions {
  log?: Logger;
  maxRunning?: number;
  maxQueued?: number;
  maxQueueWaitMs?: number;
  completedTaskTtlMs?: number;
  backgroundMaxRuntimeMs?: number;
  /**
   * The session's id: its commands join the session's own pids cgroup (process-limit.ts), named
   * after it. Default: a group of this manager's own.
   */
  sessionId?: string;
}

/** Keys of managers made without a session id: NUL never appears in a session id header. */
let anonymousManagers = 0;

/** A session's commands and background tasks. */
export class TaskManager {
  readonly #log: Logger;
  readonly #maxRunning: number;
  readonly #maxQueued: number;
  readonly #maxQueueWaitMs: number;
  readonly #ttlMs: number;
  readonly #maxRuntimeMs: number;
  /** Tasks with a model-visible id (background and auto-backgrounded), in start order. */
  readonly #tasks = new Map<string, ProcessTask>();
  /** Foreground commands in flight (killed on dispose). */
  readonly #foreground = new Set<ProcessTask>();
  /** Every command that runs (foreground and background), until it completed. */
  readonly #running = new Set<ProcessTask>();
  /** Commands waiting for room to start, first come first served. */
  readonly #queue: QueuedStart[] = [];
  readonly #tombstones = new Map<string, TaskSnapshot>();
  readonly #evictions = new Map<string, NodeJS.Timeout>();
  readonly #completionListeners = new Set<(snapshot: TaskSnapshot) => void>();
  #disposed = false;
  /** The session's pre-started isolated launcher for foreground commands (never shared). */
  readonly #spare = new SpareLauncher();
  /** Spawns in flight (room granted, process not yet running), counted against the limit. */
  #starting = 0;
  /** The session's subagent children: tasks too, observed and killed by the same tools. */
  readonly subagents: SubagentCoordinator;
  /** Names the session's pids cgroup. */
  readonly #sessionKey: string;
  /** The session's pids cgroup, held from the first command that joins one; null when none could be had. */
  #processLimit: SessionProcessLimit | null | undefined;
  /** Each isolation asked for, with commands joining the session's group (one object each, so spares match). */
  readonly #isolations = new Map<ProcessIsolation, ProcessIsolation>();

  constructor(options: ManagerOptions = {}) {
    this.#log = options.log ?? silentLogger;
    this.#maxRunning = options.maxRunning ?? MAX_RUNNING_TASKS_PER_SESSION;
    this.#maxQueued = options.maxQueued ?? MAX_QUEUED_TASKS_PER_SESSION;
    this.#maxQueueWaitMs = options.maxQueueWaitMs ?? MAX_QUEUE_WAIT_MS;
    this.#ttlMs = options.completedTaskTtlMs ?? COMPLETED_TASK_TTL_MS;
    this.#maxRuntimeMs = options.backgroundMaxRuntimeMs ?? BACKGROUND_MAX_RUNTIME_MS;
    this.subagents = new SubagentCoordinator({ log: this.#log });
    this.#sessionKey = options.sessionId ?? `\0task-manager-${++anonymousManagers}`;
  }

  /** The session's own process limit, once a command made it (diagnostics and tests). */
  get processLimit(): Pick<SessionProcessLimit, "max" | "group"> | undefined {
    return this.#processLimit ?? undefined;
  }

  /** The session's spare launcher (diagnostics and tests; the manager drives it). */
  get spareLauncher(): SpareLauncher {
    return this.#spare;
  }

  /** Commands running now (foreground and background). */
  get runningCount(): number {
    return this.#running.size;
  }

  /** Commands waiting in the queue for room to start. */
  get queuedCount(): number {
    return this.#queue.length;
  }

  /** Subscribes to background-task completions; returns the unsubscribe function. */
  onCompleted(listener: (snapshot: TaskSnapshot) => void): () => void {
    this.#completionListeners.add(listener);
    return () => this.#completionListeners.delete(listener);
  }

  /** Starts a background command under a fresh UUIDv7 id and returns at once. */
  async startBackground(spec: CommandSpec & { timeoutMs?: number }): Promise<ProcessTask> {
    const timeoutMs = spec.timeoutMs !== undefined && spec.timeoutMs > 0 ? spec.timeoutMs : undefined;
    const waitedMs = await this.#room(spec.signal, timeoutMs);
    const task = await this.#spawn(uuidV7(), spec, true);
    this.#tasks.set(task.id, task);
    if (timeoutMs !== undefined) task.after(timeoutMs - waitedMs, () => void task.kill("timeout"));
    task.after(this.#maxRuntimeMs, () => void task.kill("max_runtime"));
    this.#reportWhenDone(task);
    return task;
  }

  /**
   * Runs a foreground command until it exits, times out (killed, signal `timeout`), is
   * cancelled through `spec.signal` (killed, signal `cancelled`), or moves to the background
   * (then its id is the call id and it keeps running under the manager). When the session
   * already runs its limit of commands, the command first waits its turn; that wait counts
   * against its timeout and its background budget.
   */
  async runForeground(spec: ForegroundSpec): Promise<ForegroundOutcome> {
    const waitedMs = await this.#room(spec.signal, spec.timeoutMs);
    const task = await this.#spawn(spec.toolCallId, spec, false);
    this.#foreground.add(task);
    const onAbort = () => void task.kill("cancelled");
    try {
      if (spec.signal?.aborted) onAbort();
      spec.signal?.addEventListener("abort", onAbort, { once: true });
      if (spec.autoBackground) {
        task.after(Math.min(spec.autoBackground.budgetMs, spec.timeoutMs) - waitedMs, () => this.#background(task));
      } else {
        task.after(spec.timeoutMs - waitedMs, () => void task.kill("timeout"));
      }
      const first = await Promise.race([task.completion.then(() => "completed" as const), task.whenBackgrounded().then(() => "backgrounded" as const)]);
      if (first === "backgrounded") return { kind: "backgrounded", task, result: task.result() };
      return { kind: "completed", task, result: task.result() };
    } finally {
      spec.signal?.removeEventListener("abort", onAbort);
      this.#foreground.delete(task);
      this.#spare.scheduleReplenish();
    }
  }

  /** A snapshot of a task by id (live or tombstone), or undefined. */
  async snapshot(id: string): Promise<TaskSnapshot | undefined> {
    const task = this.#tasks.get(id);
    if (task) return snapshotOf(task);
    const tombstone = this.#tombstones.get(id);
    return tombstone ? { ...tombstone } : undefined;
  }

  /**
   * Waits up to `timeoutMs` for a task to complete (or until `signal` aborts), then returns
   * its snapshot; undefined when unknown. Marks the task as waited on.
   */
  async waitForCompletion(id: string, timeoutMs: number, signal?: AbortSignal): Promise<TaskSnapshot | undefined> {
    const task = this.#tasks.get(id);
    if (!task) {
      const tombstone = this.#tombstones.get(id);
      if (tombstone) tombstone.blockWaited = true;
      return tombstone ? { ...tombstone } : undefined;
    }
    task.blockWaited = true;
    if (!task.completed) await waitUntil(task.reported, timeoutMs, signal);
    return snapshotOf(task);
  }

  /** Resolves when any of the tasks (commands or subagents) completes, the time is up or `signal` aborts, saying which. */
  async waitForAny(ids: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<WaitOutcome> {
    const pending = this.#pendingCompletions(ids);
    if (pending.length === 0) return "completed";
    return waitUntil(Promise.race(pending), timeoutMs, signal);
  }

  /** Resolves when all of the tasks (commands or subagents) completed, the time is up or `signal` aborts, saying which. */
  async waitForAll(ids: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<WaitOutcome> {
    const pending = this.#pendingCompletions(ids);
    if (pending.length === 0) return "completed";
    return waitUntil(Promise.all(pending), timeoutMs, signal);
  }

  /** What a wait on `ids` waits for: running commands (marked as waited on) and running subagents. */
  #pendingCompletions(ids: readonly string[]): Promise<unknown>[] {
    const pending: Promise<unknown>[] = [];
    for (const id of ids) {
      const task = this.#tasks.get(id);
      if (task) {
        if (task.completed) continue;
        task.blockWaited = true;
        pending.push(task.reported);
      } else if (this.subagents.isPending(id)) {
        pending.push(this.subagents.completion(id));
      }
    }
    return pending;
  }

  /** Waits up to `timeoutMs` for a subagent to be terminal (or until `signal` aborts). */
  async waitForSubagent(id: string, timeoutMs: number, signal?: AbortSignal): Promise<WaitOutcome> {
    if (!this.subagents.isPending(id)) return "completed";
    return waitUntil(this.subagents.completion(id), timeoutMs, signal);
  }

  /** Kills a task by id (explicit kill: status `cancelled`). */
  async kill(id: string): Promise<KillOutcome> {
    const task = this.#tasks.get(id);
    if (!task) return "not_found";
    if (task.completed || task.process.exited) return "already_exited";
    task.explicitlyKilled = true;
    await task.kill("cancelled");
    return "killed";
  }

  /** Ids of the known tasks (live first, in start order, then tombstones). */
  knownIds(): string[] {
    return [...this.#tasks.keys(), ...[...this.#tombstones.keys()].filter((id) => !this.#tasks.has(id))];
  }

  /** Whether the session has any task at all. */
  get isEmpty(): boolean {
    return this.#tasks.size === 0 && this.#tombstones.size === 0;
  }

  /** Kills every command and cancels every subagent of the session, and waits for them to be gone. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    const children = this.subagents.dispose();
    this.#spare.dispose();
    for (const queued of this.#queue.splice(0)) queued.refuse(closingError());
    for (const timer of this.#evictions.values()) clearTimeout(timer);
    this.#evictions.clear();
    const running = [...this.#foreground, ...this.#tasks.values()].filter((task) => !task.completed);
    await Promise.allSettled([...running.map((task) => task.kill("killed")), children]);
    // The group goes once empty (the spares killed above may take a moment: it is retried).
    this.#processLimit?.release();
  }

  /**
   * `requested` (default: the detected isolation) with commands joining the session's pids
   * cgroup, made on first use; the isolation itself where commands join no cgroup, or the
   * session's cannot be made (they then share the server's).
   */
  #isolationFor(requested: ProcessIsolation | undefined): ProcessIsolation {
    const base = requested ?? detectProcessIsolation();
    if (base.processLimitFile === undefined) return base;
    let isolation = this.#isolations.get(base);
    if (!isolation) {
      if (this.#processLimit === undefined) {
        const limit = serverProcessLimit();
        this.#processLimit = limit?.acquireSession(this.#sessionKey) ?? null;
        if (limit && limit.sessionMax > 0 && !this.#processLimit) {
          this.#log.warn({ group: limit.group }, "cannot make the session's pids cgroup; its commands share the server's process limit");
        }
      }
      isolation = this.#processLimit ? base.withProcessLimit(this.#processLimit.procsFile) : base;
      this.#isolations.set(base, isolation);
    }
    return isolation;
  }

  /**
   * Reserves room for one command (counted in `#starting` until `#spawn` hands it over):
   * at once when the session runs fewer than its limit and nobody queues before it, else
   * after waiting its turn, for at most the queue's wait, `timeoutMs` (the command's own
   * deadline) or until `signal` aborts. Resolves with the milliseconds waited.
   */
  #room(signal: AbortSignal | undefined, timeoutMs: number | undefined): Promise<number> {
    if (this.#disposed) return Promise.reject(closingError());
    // Before looking for room: a call cancelled while it was on its way here must not take a
    // place that has just freed up (it would run its command for a caller who has gone).
    if (signal?.aborted) return Promise.reject(cancelledError());
    if (this.#queue.length === 0 && this.#hasRoom()) {
      this.#starting++;
      return Promise.resolve(0);
    }
    if (this.#queue.length >= this.#maxQueued) {
      return Promise.reject(
        new ToolError(
          ErrorCode.RATE_LIMITED,
          `Terminal error: too many commands in this session (${this.runningCount} running, ${this.#queue.length} waiting to start)`,
          {
            suggestion: `Retry in ${QUEUE_RETRY_AFTER_MS / 1000} s, once some of the running commands have finished, or kill background tasks that are no longer needed.`,
            details: {
              running: this.runningCount,
              queued: this.#queue.length,
              max_running: this.#maxRunning,
              max_queued: this.#maxQueued,
              retry_after_ms: QUEUE_RETRY_AFTER_MS,
            },
          },
        ),
      );
    }
    const started = Date.now();
    const limitMs = Math.min(this.#maxQueueWaitMs, timeoutMs ?? Infinity);
    const byTimeout = timeoutMs !== undefined && timeoutMs <= this.#maxQueueWaitMs;
    return new Promise<number>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const index = this.#queue.indexOf(entry);
        if (index >= 0) this.#queue.splice(index, 1);
      };
      const entry: QueuedStart = {
        grant: () => {
          leave();
          this.#starting++;
          resolve(Date.now() - started);
        },
        refuse: (error) => {
          leave();
          reject(error);
        },
      };
      const onAbort = () => entry.refuse(cancelledError());
      const timer = setTimeout(
        () => {
          const running = this.runningCount;
          entry.refuse(
            byTimeout
              ? new ToolError(
                  ErrorCode.TIMEOUT,
                  `Terminal error: the command did not start within its timeout of ${limitMs} ms: this session already runs ${running} commands (limit ${this.#maxRunning})`,
                  {
                    suggestion: "Retry with a longer timeout, or wait for running background tasks to finish or kill some.",
                    details: { running, max_running: this.#maxRunning, waited_ms: limitMs },
                  },
                )
              : new ToolError(
                  ErrorCode.RATE_LIMITED,
                  `Terminal error: the command waited ${limitMs} ms to start and did not: this session already runs ${running} commands (limit ${this.#maxRunning})`,
                  {
                    suggestion: `Retry in ${QUEUE_RETRY_AFTER_MS / 1000} s, or wait for running background tasks to finish or kill some.`,
                    details: { running, max_running: this.#maxRunning, waited_ms: limitMs, retry_after_ms: QUEUE_RETRY_AFTER_MS },
                  },
                ),
          );
        },
        Math.min(limitMs, 2 ** 31 - 1),
      );
      timer.unref();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(entry);
    });
  }

  #hasRoom(): boolean {
    return this.#running.size + this.#starting < this.#maxRunning;
  }

  /** Hands the room that freed up to the queue, oldest first. */
  #admit(): void {
    while (this.#queue.length > 0 && this.#hasRoom()) this.#queue[0]!.grant();
  }

  /** Spawns a command whose room {@link #room} reserved. */
  async #spawn(id: string, spec: CommandSpec, background: boolean): Promise<ProcessTask> {
    const holder: { task?: ProcessTask } = {};
    let process: RunningProcess;
    try {
      if (this.#disposed) throw closingError();
      // Granted in the turn the caller's cancel arrived: give the room back rather than start.
      if (spec.signal?.aborted) throw cancelledError();
      process = await RunningProcess.start({
        command: spec.command,
        cwd: spec.cwd,
        env: background ? { PYTHONUNBUFFERED: "1", ...spec.env } : spec.env,
        logFile: spec.logFile,
        outputLimitChars: spec.outputLimitChars,
        isolation: this.#isolationFor(spec.isolation),
        ...(spec.shell ? { shell: spec.shell } : {}),
        ...(spec.logCapBytes !== undefined ? { logCapBytes: spec.logCapBytes } : {}),
        ...(spec.outputKillBytes !== undefined ? { outputKillBytes: spec.outputKillBytes } : {}),
        onOutputLimit: () => void holder.task?.kill("output_limit"),
        ...(spec.onOutput ? { onOutput: spec.onOutput } : {}),
        // Foreground calls are the latency-sensitive ones; background ones spawn cold.
        ...(background ? {} : { launcher: this.#spare }),
      });
    } catch (error) {
      this.#starting--;
      this.#admit();
      throw error;
    }
    const task = new ProcessTask(id, spec, process, background);
    // In the same turn as the reservation ends, so no other command takes this room meanwhile.
    this.#starting--;
    this.#running.add(task);
    void task.completion.finally(() => {
      this.#running.delete(task);
      this.#admit();
    });
    holder.task = task;
    // A session closed while this one was starting: dispose did not see it.
    if (this.#disposed) void task.kill("killed");
    if (spec.notify && !background) {
      spec.notify({
        type: "BashOutputChunk",
        tool_call_id: spec.toolCallId,
        command: spec.displayCommand ?? spec.command,
        output: "",
        total_bytes: 0,
        truncated: false,
        cwd: spec.cwd,
      });
    }
    return task;
  }

  #background(task: ProcessTask): void {
    if (task.completed || task.isBackgrounded) return;
    const existing = this.#tasks.get(task.id);
    if (existing && existing !== task) this.#log.warn({ taskId: task.id }, "auto-backgrounded task id reused; the older task is replaced");
    this.#tasks.set(task.id, task);
    task.moveToBackground();
    task.after(this.#maxRuntimeMs - (Date.now() - task.startTime.getTime()), () => void task.kill("max_runtime"));
    this.#reportWhenDone(task);
  }

  /** Reports a background task's completion when it comes; waits end on `task.reported`, which never rejects. */
  #reportWhenDone(task: ProcessTask): void {
    task.reported = task.completion
      .then(() => this.#reportCompletion(task))
      .catch((error: unknown) => this.#log.warn({ err: error, taskId: task.id }, "reporting a task completion failed"));
  }

  async #reportCompletion(task: ProcessTask): Promise<void> {
    const snapshot = await snapshotOf(task);
    task.process.output.clear();
    task.spec.notify?.({ type: "TaskCompleted", ...notificationSnapshot(snapshot) });
    for (const listener of this.#completionListeners) {
      try {
        listener(snapshot);
      } catch (error) {
        this.#log.warn({ err: error }, "task completion listener failed");
      }
    }
    if (this.#disposed) return;
    const timer = setTimeout(() => this.#evict(task), this.#ttlMs);
    timer.unref();
    this.#evictions.set(task.id, timer);
  }

  #evict(task: ProcessTask): void {
    this.#evictions.delete(task.id);
    if (this.#tasks.get(task.id) !== task) return;
    this.#tasks.delete(task.id);
    this.#tombstones.set(task.id, {
      ...baseSnapshot(task),
      output: "",
      truncated: task.process.output.truncated || task.process.totalBytes > 0,
    });
    while (this.#tombstones.size > MAX_TASK_TOMBSTONES) {
      let oldest: TaskSnapshot | undefined;
      for (const snap of this.#tombstones.values()) if (!oldest || snap.startTime < oldest.startTime) oldest = snap;
      if (!oldest) break;
      this.#tombstones.delete(oldest.taskId);
    }
  }
}

function baseSnapshot(task: ProcessTask): Omit<TaskSnapshot, "output" | "truncated"> {
  return {
    taskId: task.id,
    kind: "bash",
    command: task.spec.command,
    ...(task.spec.displayCommand !== undefined ? { displayCommand: task.spec.displayCommand } : {}),
    cwd: task.spec.cwd,
    ...(task.spec.description !== undefined ? { description: task.spec.description } : {}),
    startTime: task.startTime,
    ...(task.endTime ? { endTime: task.endTime } : {}),
    outputFile: task.process.logFile,
    outputTotalBytes: task.process.totalBytes,
    exitCode: task.exitCode,
    signal: task.signal,
    completed: task.completed,
    blockWaited: task.blockWaited,
    explicitlyKilled: task.explicitlyKilled,
    isBackgrounded: task.isBackgrounded,
    ...(task.process.pid === undefined ? {} : { pid: task.process.pid }),
  };
}

/** Live view while running; a completed background task reads its log's first MiB. */
async function snapshotOf(task: ProcessTask): Promise<TaskSnapshot> {
  const base = baseSnapshot(task);
  if (task.completed && task.isBackgrounded) {
    const { text, more } = await readLogPrefix(task.process.logFile, MAX_SNAPSHOT_BYTES);
    return { ...base, output: text, truncated: task.process.output.truncated || more };
  }
  return { ...base, output: task.process.output.text(), truncated: task.process.output.truncated };
}

async function readLogPrefix(file: string, maxBytes: number): Promise<{ text: string; more: boolean }> {
  try {
    const handle = await open(file, "r");
    try {
      const buffer = Buffer.alloc(maxBytes + 1);
      const { bytesRead } = await handle.read(buffer, 0, maxBytes + 1, 0);
      const more = bytesRead > maxBytes;
      let end = Math.min(bytesRead, maxBytes);
      // Never end inside a UTF-8 sequence.
      let lead = end;
      while (lead > 0 && (buffer[lead - 1]! & 0xc0) === 0x80) lead--;
      if (lead > 0) {
        const first = buffer[lead - 1]!;
        const width = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
        if (lead - 1 + width > end) end = lead - 1;
      }
      return { text: buffer.subarray(0, end).toString("utf8"), more: more || end < bytesRead };
    } finally {
      await handle.close();
    }
  } catch {
    return { text: "", more: true };
  }
}

function systemTime(date: Date): { secs_since_epoch: number; nanos_since_epoch: number } {
  const ms = date.getTime();
  return { secs_since_epoch: Math.floor(ms / 1000), nanos_since_epoch: (ms % 1000) * 1_000_000 };
}

/** The `TaskCompleted` notification fields (spec §7.6). */
export function notificationSnapshot(s: TaskSnapshot): Record<string, unknown> {
  return {
    task_id: s.taskId,
    command: s.command,
    display_command: s.displayCommand ?? null,
    cwd: s.cwd,
    start_time: systemTime(s.startTime),
    end_time: s.endTime ? systemTime(s.endTime) : null,
    output: s.output,
    output_file: s.outputFile,
    truncated: s.truncated,
    output_total_bytes: s.outputTotalBytes,
    exit_code: s.exitCode,
    signal: s.signal,
    completed: s.completed,
    kind: s.kind,
    block_waited: s.blockWaited,
    explicitly_killed: s.explicitlyKilled,
    description: s.description ?? null,
    is_backgrounded: s.isBackgrounded,
  };
}

/**
 * How a wait ended. Decided by what fired, never by reading the clock afterwards: a timer
 * may fire a millisecond before `Date.now()` reaches the deadline it was set for.
 */
export type WaitOutcome = "completed" | "timed_out" | "aborted";

function waitUntil(promise: Promise<unknown>, timeoutMs: number, signal?: AbortSignal): Promise<WaitOutcome> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve("aborted");
    const finish = (outcome: WaitOutcome) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    const onAbort = () => finish("aborted");
    const timer = setTimeout(() => finish("timed_out"), Math.min(Math.max(0, timeoutMs), 2 ** 31 - 1));
    signal?.addEventListener("abort", onAbort, { once: true });
    promise.then(
      () => finish("completed"),
      () => finish("completed"),
    );
  });
}

/** A command waiting for room to start. */
interface QueuedStart {
  grant(): void;
  refuse(error: ToolError): void;
}

function closingError(): ToolError {
  return new ToolError(ErrorCode.EXECUTION_FAILED, "Terminal error: the session is closing");
}

function cancelledError(): ToolError {
  return new ToolError(ErrorCode.CANCELLED, "Terminal error: the command was cancelled before it started");
}

/** The session service holding the task manager; disposing the session kills every command. */
export const taskManagerService = defineService<TaskManager, SessionHandle>({
  name: "grok_build.TaskManager",
  create: (session) => new TaskManager({ log: session.log, sessionId: session.id }),
  dispose: (manager) => manager.dispose(),
});

/** Reads a whole task log (tests and tools that want the full text). */
export async function readTaskLog(file: string): Promise<string> {
  return readFile(file, "utf8");
}
