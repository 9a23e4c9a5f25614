/**
 * The session's subagent children (spec §7.1): each child is a task with an id, run through the
 * session's subagent host, admitted under a concurrency limit (queue or fail), observable by
 * snapshot and wait, cancellable, and kept after completion (at most 1024, the oldest evicted).
 * Formatting for the model lives in the tools, not here.
 */
import { ErrorCode, ToolError, type Logger, type SubagentHost, type ToolNotification } from "@grok-tools/runtime";
import { silentLogger, type SubagentRunResult, type SubagentSpawnRequest } from "@grok-tools/runtime/helpers";

/** Children running at once per parent session (`GROK_MAX_CONCURRENT_SUBAGENTS`). */
export const DEFAULT_MAX_CONCURRENT_SUBAGENTS = 32;
/** Completed children kept with their output; older ones read {@link EVICTED_SUBAGENT_OUTPUT}. */
export const MAX_COMPLETED_SUBAGENTS = 1024;
/** What an evicted child's output reads. */
export const EVICTED_SUBAGENT_OUTPUT = "[subagent output no longer available]";

/** Status of a child: `initializing` while it waits for room, then running, then terminal. */
export type SubagentStatus = "initializing" | "running" | "completed" | "failed" | "cancelled";

/** What to do when the limit is reached: wait for room, or refuse at once. */
export type SubagentLimitBehavior = "queue" | "fail";

/** A point-in-time view of a child. */
export interface SubagentSnapshot {
  id: string;
  subagentType: string;
  description: string;
  parentSessionId: string;
  cwd?: string;
  status: SubagentStatus;
  startTime: Date;
  endTime?: Date;
  /** The result once terminal (success, failure or cancellation). */
  result?: SubagentRunResult;
  /** Why it failed or was cancelled. */
  error?: string;
  backgrounded: boolean;
  /** Whether its output was evicted. */
  evicted: boolean;
}

/** Result of {@link SubagentCoordinator.cancel}. */
export type SubagentCancelOutcome = { kind: "cancelled" } | { kind: "already_finished"; status: SubagentStatus } | { kind: "not_found" };

/** How to start one child. */
export interface SubagentStart {
  request: SubagentSpawnRequest;
  host: SubagentHost;
  /** Runs in the background from the start (else the caller may background it later). */
  background: boolean;
  /** Where the `SubagentCompleted` notification goes. */
  notify?: (notification: ToolNotification) => void;
  /** Limits of the parent session. */
  maxConcurrent: number;
  limitBehavior: SubagentLimitBehavior;
}

class Child {
  readonly controller = new AbortController();
  readonly startTime = new Date();
  endTime: Date | undefined;
  status: SubagentStatus = "initializing";
  result: SubagentRunResult | undefined;
  error: string | undefined;
  evicted = false;
  backgrounded: boolean;
  cancelReason: string | undefined;
  readonly done: Promise<void>;
  #resolveDone!: () => void;

  constructor(
    readonly request: SubagentSpawnRequest,
    background: boolean,
  ) {
    this.backgrounded = background;
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
  }

  get terminal(): boolean {
    return this.status === "completed" || this.status === "failed" || this.status === "cancelled";
  }

  finish(status: "completed" | "failed" | "cancelled", result: SubagentRunResult | undefined, error?: string): void {
    if (this.terminal) return;
    this.status = status;
    this.result = result;
    this.error = error;
    this.endTime = new Date();
    this.#resolveDone();
  }

  snapshot(): SubagentSnapshot {
    return {
      id: this.request.id,
      subagentType: this.request.subagentType,
      description: this.request.description,
      parentSessionId: this.request.parentSessionId,
      ...(this.request.cwd !== undefined ? { cwd: this.request.cwd } : {}),
      status: this.status,
      startTime: this.startTime,
      ...(this.endTime ? { endTime: this.endTime } : {}),
      ...(this.result ? { result: this.evicted ? { ...this.result, output: EVICTED_SUBAGENT_OUTPUT } : this.result } : {}),
      ...(this.error !== undefined ? { error: this.error } : {}),
      backgrounded: this.backgrounded,
      evicted: this.evicted,
    };
  }
}

/** A session's subagent children. */
export class SubagentCoordinator {
  readonly #log: Logger;
  readonly #children = new Map<string, Child>();
  /** Children waiting for room, first come first served, each with how it was started (its session's limit, its notify). */
  readonly #queue: Array<{ child: Child; spec: SubagentStart; grant: () => void }> = [];
  readonly #completedOrder: string[] = [];
  #running = 0;
  #disposed = false;

  constructor(options: { log?: Logger } = {}) {
    this.#log = options.log ?? silentLogger;
  }

  /** Children running now. */
  get runningCount(): number {
    return this.#running;
  }

  /** Children waiting for room. */
  get queuedCount(): number {
    return this.#queue.length;
  }

  /** Ids of every known child, in start order. */
  knownIds(): string[] {
    return [...this.#children.keys()];
  }

  has(id: string): boolean {
    return this.#children.has(id);
  }

  /**
   * Starts a child: at once when there is room, else queued (status `initializing`) or refused
   * (`limitBehavior: "fail"`). Returns when it is admitted or queued; `completion(id)` resolves
   * when it is terminal.
   */
  start(spec: SubagentStart): SubagentSnapshot {
    if (this.#disposed) throw new ToolError(ErrorCode.EXECUTION_FAILED, "The session is closing; no subagent can be started.");
    if (this.#children.has(spec.request.id)) {
      throw new ToolError(ErrorCode.INVALID_INPUT, `A subagent with id ${spec.request.id} already exists in this session.`, {
        suggestion: "Start it without an explicit id.",
      });
    }
    const atLimit = this.#running >= spec.maxConcurrent || this.#queue.length > 0;
    if (atLimit && spec.limitBehavior === "fail") {
      throw new ToolError(
        ErrorCode.RATE_LIMITED,
        `Subagent limit reached: ${this.#running} subagents are running in this session (max ${spec.maxConcurrent}).`,
        {
          suggestion: "Wait for a running subagent to finish (or kill one), then retry.",
          details: { running: this.#running, max_concurrent: spec.maxConcurrent },
        },
      );
    }
    const child = new Child(spec.request, spec.background);
    this.#children.set(spec.request.id, child);
    const run = () => void this.#run(child, spec);
    if (atLimit) {
      this.#queue.push({ child, spec, grant: run });
    } else {
      run();
    }
    return child.snapshot();
  }

  async #run(child: Child, spec: SubagentStart): Promise<void> {
    this.#running++;
    child.status = "running";
    try {
      if (child.controller.signal.aborted) {
        child.finish("cancelled", undefined, child.cancelReason ?? "Subagent was cancelled");
        return;
      }
      const result = await spec.host.spawn(child.request, child.controller.signal);
      if (child.controller.signal.aborted || result.cancelled) {
        child.finish("cancelled", result, child.cancelReason ?? result.error ?? "Subagent was cancelled");
      } else if (result.success) {
        child.finish("completed", result);
      } else {
        child.finish("failed", result, result.error ?? "Unknown subagent error");
      }
    } catch (error) {
      if (child.controller.signal.aborted) child.finish("cancelled", undefined, child.cancelReason ?? "Subagent was cancelled");
      else child.finish("failed", undefined, error instanceof Error ? error.message : String(error));
    } finally {
      this.#running--;
      this.#completed(child, spec);
      this.#admit();
    }
  }

  #admit(): void {
    while (this.#queue.length > 0) {
      const next = this.#queue[0]!;
      if (next.child.terminal) {
        this.#queue.shift();
        continue;
      }
      if (this.#running >= next.spec.maxConcurrent) return;
      this.#queue.shift();
      next.grant();
    }
  }

  #completed(child: Child, spec: SubagentStart): void {
    const snap = child.snapshot();
    try {
      spec.notify?.({
        type: "SubagentCompleted",
        subagent_id: snap.id,
        subagent_type: snap.subagentType,
        description: snap.description,
        status: snap.status,
        error: snap.status === "completed" ? null : (snap.error ?? null),
        duration_ms: snap.result?.durationMs ?? (snap.endTime ? snap.endTime.getTime() - snap.startTime.getTime() : 0),
        owner_session_id: snap.parentSessionId,
      });
    } catch (error) {
      this.#log.warn({ err: error, subagentId: snap.id }, "subagent completion notification failed");
    }
    this.#completedOrder.push(child.request.id);
    while (this.#completedOrder.length > MAX_COMPLETED_SUBAGENTS) {
      const old = this.#children.get(this.#completedOrder.shift()!);
      if (old) old.evicted = true;
    }
  }

  /** A child's snapshot, or undefined when unknown. */
  snapshot(id: string): SubagentSnapshot | undefined {
    return this.#children.get(id)?.snapshot();
  }

  /** Resolves when the child is terminal (at once when unknown or terminal). */
  completion(id: string): Promise<void> {
    return this.#children.get(id)?.done ?? Promise.resolve();
  }

  /** Whether the child is known and not terminal. */
  isPending(id: string): boolean {
    const child = this.#children.get(id);
    return child !== undefined && !child.terminal;
  }

  /** Marks a foreground child as moved to the background (its budget elapsed). */
  markBackgrounded(id: string): void {
    const child = this.#children.get(id);
    if (child) child.backgrounded = true;
  }

  /**
   * Cancels a child: a queued one never starts (it completes as cancelled at once: notification,
   * completed-children bound, and the queue moves on), a running one has its host call cancelled
   * and completes when that call settles.
   */
  cancel(id: string, reason = "Subagent was cancelled"): SubagentCancelOutcome {
    const child = this.#children.get(id);
    if (!child) return { kind: "not_found" };
    if (child.terminal) return { kind: "already_finished", status: child.status };
    child.cancelReason = reason;
    child.controller.abort(new Error(reason));
    if (child.status === "initializing") {
      const index = this.#queue.findIndex((q) => q.child === child);
      const queued = index >= 0 ? this.#queue.splice(index, 1)[0] : undefined;
      child.finish("cancelled", undefined, reason);
      if (queued) this.#completed(child, queued.spec);
      this.#admit();
    }
    return { kind: "cancelled" };
  }

  /** Cancels every child and waits for the running ones to settle. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    const pending = [...this.#children.values()].filter((c) => !c.terminal);
    for (const child of pending) this.cancel(child.request.id, "The session closed");
    await Promise.allSettled(pending.map((c) => c.done));
  }
}
