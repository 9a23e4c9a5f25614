/**
 * CallResults: the idempotency record of one session (issue #21). For a call with side effects and
 * a caller-given call_id it keeps the response (bounded by count and age), so that a retry of the
 * same call is answered with it instead of running the tool again; a retry while the first run is
 * still going waits for it. Kept in `<sessionDir>/call_results.jsonl`, appended and fsynced before
 * the call answers, so a replay also works after a server restart with the same state dir.
 *
 * A call cut by its cancellation or deadline answers at once, but its record stays in flight until
 * the tool body really settled (the body may go on and apply its effect): a retry meanwhile waits,
 * and gets the body's own outcome. Only a run that ends CANCELLED is not kept (the body never
 * started, or stopped on the cancellation before doing anything; tools that stop part-way return a
 * result saying so instead): a retry, or a waiting one, then runs the tool.
 */
import { hash } from "node:crypto";
import { mkdir, open, readFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../core/logger.js";
import { ErrorCode } from "../errors/error-code.js";
import type { CallSignal } from "../execute/call-cancellation.js";
import type { ExecuteOutcome, ExecuteRequest } from "../execute/execute-types.js";
import { writeFileAtomic } from "./state-persister.js";

/** File name in the session folder. */
export const CALL_RESULTS_FILE_NAME = "call_results.jsonl";
/** Default of `maxEntries`: responses kept per session. */
export const DEFAULT_CALL_RESULTS_MAX_ENTRIES = 256;
/** Default of `maxAgeMs`: how long a response can be replayed. */
export const DEFAULT_CALL_RESULTS_MAX_AGE_MS = 60 * 60 * 1000;

/** Bounds of the record; `maxEntries: 0` turns replays off. */
export interface CallResultsLimits {
  maxEntries: number;
  maxAgeMs: number;
}

/** One kept response. */
interface Kept {
  /** Hash of what the call asked for: a retry must ask for exactly the same. */
  fingerprint: string;
  at: number;
  outcome: ExecuteOutcome;
}

/**
 * What a lookup found. A `replay` outcome resolves once the first run settled; undefined means it
 * ended without an effect (CANCELLED) and was not kept: look again, and run the tool.
 */
export type CallLookup = { kind: "new" } | { kind: "replay"; outcome: Promise<ExecuteOutcome | undefined> } | { kind: "conflict"; toolName: string };

/** Whether an outcome is CANCELLED: such a run is not kept (see the module comment). */
function isCancelled(outcome: ExecuteOutcome): boolean {
  return !outcome.ok && outcome.error.code === ErrorCode.CANCELLED;
}

/** The hash of a request's tool, input and options (not its signal or callbacks). */
export function callFingerprint(request: ExecuteRequest): string {
  const { toolName, inputJson, timeoutMs, background, outputFormat, workingDirectory, includeFields, excludeFields } = request;
  const canonical = JSON.stringify([
    toolName,
    inputJson,
    timeoutMs ?? null,
    background ?? null,
    outputFormat ?? null,
    workingDirectory ?? null,
    includeFields ?? null,
    excludeFields ?? null,
  ]);
  return hash("sha256", canonical, "hex");
}

/** `promise`, or `"aborted"` as soon as `signal` aborts (a repeat whose own caller gave up waiting). */
export function unlessAborted<T>(promise: Promise<T>, signal: CallSignal | undefined): Promise<T | "aborted"> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve("aborted");
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

export class CallResults {
  readonly limits: CallResultsLimits;
  readonly #log: Logger;
  readonly #kept = new Map<string, Kept & { toolName: string }>();
  readonly #running = new Map<string, { fingerprint: string; toolName: string; outcome: Promise<ExecuteOutcome | undefined> }>();
  #file: string | undefined;
  #loaded: Promise<void> | undefined;
  /** Appends, one at a time, in call order. */
  #appending: Promise<void> = Promise.resolve();
  #appendedSinceCompaction = 0;

  constructor(limits: CallResultsLimits, log: Logger) {
    this.limits = limits;
    this.#log = log;
  }

  get enabled(): boolean {
    return this.limits.maxEntries > 0;
  }

  /** Loads the record of the session folder (once; the folder is known from finalize on). */
  open(sessionDir: string): Promise<void> {
    const file = path.join(sessionDir, CALL_RESULTS_FILE_NAME);
    if (this.#file === file && this.#loaded) return this.#loaded;
    this.#file = file;
    this.#kept.clear();
    this.#loaded = this.#load(file);
    return this.#loaded;
  }

  /** What to do with a call: run it, replay (or wait for) an earlier answer, or refuse a reused id. */
  lookup(callId: string, fingerprint: string, now = Date.now()): CallLookup {
    const running = this.#running.get(callId);
    if (running) return running.fingerprint === fingerprint ? { kind: "replay", outcome: running.outcome } : { kind: "conflict", toolName: running.toolName };
    const kept = this.#kept.get(callId);
    if (!kept || now - kept.at > this.limits.maxAgeMs) return { kind: "new" };
    return kept.fingerprint === fingerprint ? { kind: "replay", outcome: Promise.resolve(kept.outcome) } : { kind: "conflict", toolName: kept.toolName };
  }

  /**
   * Records a run in progress until `settled` (the moment nothing of the run goes on: for a call cut
   * by its cancellation or deadline, when its tool body settled), then keeps its outcome, durably
   * before the returned promise resolves. A run that settled CANCELLED is not kept (resolves
   * undefined), so that a retry runs the tool.
   */
  track(callId: string, fingerprint: string, toolName: string, settled: Promise<ExecuteOutcome>): Promise<ExecuteOutcome | undefined> {
    const recorded = settled.then(async (outcome) => {
      try {
        if (isCancelled(outcome)) return undefined;
        const kept = { fingerprint, at: Date.now(), outcome, toolName };
        this.#kept.set(callId, kept);
        this.#trim(kept.at);
        await this.#append(callId, kept);
        return outcome;
      } finally {
        this.#running.delete(callId);
      }
    });
    this.#running.set(callId, { fingerprint, toolName, outcome: recorded });
    return recorded;
  }

  #trim(now: number): void {
    for (const [id, kept] of this.#kept) {
      if (this.#kept.size <= this.limits.maxEntries && now - kept.at <= this.limits.maxAgeMs) break;
      this.#kept.delete(id);
    }
  }

  #append(callId: string, kept: Kept & { toolName: string }): Promise<void> {
    const file = this.#file;
    if (!file) return Promise.resolve();
    const line = JSON.stringify({ id: callId, ...kept }) + "\n";
    const step = this.#appending.then(async () => {
      // The file grows by appends; past twice the bound it is rewritten with what is still kept.
      if (++this.#appendedSinceCompaction > 2 * this.limits.maxEntries) {
        this.#appendedSinceCompaction = 0;
        await this.#rewrite(file);
        return;
      }
      await mkdir(path.dirname(file), { recursive: true });
      const handle = await open(file, "a", 0o600);
      try {
        await handle.write(line);
        await handle.datasync();
      } finally {
        await handle.close();
      }
    });
    // A failed write costs the replay after a restart, not the call (logged); the next write retries.
    this.#appending = step.catch((error: unknown) => this.#log.error({ err: error, file }, "cannot write the call results"));
    return this.#appending;
  }

  async #rewrite(file: string): Promise<void> {
    const lines = [...this.#kept].map(([id, kept]) => JSON.stringify({ id, ...kept }) + "\n");
    await writeFileAtomic(file, lines.join(""), 0o600);
  }

  async #load(file: string): Promise<void> {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT")
        this.#log.warn({ err: error, file }, "cannot read the call results; earlier calls will not be replayed");
      return;
    }
    const now = Date.now();
    let bad = 0;
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        const entry = JSON.parse(line) as { id?: unknown; fingerprint?: unknown; at?: unknown; outcome?: ExecuteOutcome; toolName?: unknown };
        if (typeof entry.id !== "string" || typeof entry.fingerprint !== "string" || typeof entry.at !== "number" || typeof entry.outcome !== "object") {
          bad++;
          continue;
        }
        // Later lines win: the map keeps insertion order, so re-insert to move the id to the end.
        this.#kept.delete(entry.id);
        this.#kept.set(entry.id, { fingerprint: entry.fingerprint, at: entry.at, outcome: entry.outcome, toolName: String(entry.toolName ?? "") });
      } catch {
        // A line cut by a crash mid-append.
        bad++;
      }
    }
    this.#trim(now);
    if (bad > 0) this.#log.warn({ file, bad }, "skipped unreadable lines of the call results");
  }
}
