/**
 * SessionRegistry: which Session a call runs in. Calls without `x-grok-session-id` use the one
 * default session (as before sessions existed); each distinct id gets its own Session, created on
 * its first call (warm-started from its saved finalize and state file), limited in number and in
 * concurrent calls, and evicted after an idle timeout (state flushed, tasks killed, memory freed).
 */
import { status as GrpcStatus, type Metadata } from "@grpc/grpc-js";
import type { Session } from "@grok-tools/runtime/host";
import { type Logger } from "@grok-tools/runtime";
import { grpcError } from "../grpc/unary-handler.js";
import { SESSION_ID_HEADER, sessionFolderName, sessionIdOf } from "./session-id.js";
import { loadSavedFinalize } from "./saved-finalize.js";

/** Default of `maxSessions`: routed sessions held at once (the default session is not counted). */
export const DEFAULT_MAX_SESSIONS = 256;
/** Default of `maxCallsPerSession`: calls of one routed session running at once (the default session has no limit). */
export const DEFAULT_MAX_CALLS_PER_SESSION = 256;
/** Default of `sessionIdleTimeoutMs`: a routed session with no call for this long is evicted. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;

/** The limits of a registry. */
export interface SessionLimits {
  maxSessions: number;
  maxCallsPerSession: number;
  /** 0 turns eviction off. */
  idleTimeoutMs: number;
}

/** What the registry needs from its server. */
export interface SessionRegistryOptions {
  defaultSession: Session;
  /**
   * A new Session for a routed id; `folderName` names its state folder. It is held (and to be
   * counted) only once `onOpened` is told: a session whose lock is refused is dropped before.
   */
  createSession(id: string, folderName: string): Session;
  limits?: Partial<SessionLimits>;
  log: Logger;
  /** Told after a routed session closed (eviction or shutdown), to drop what the server keeps for it. */
  onClosed?(session: Session, reason: "idle" | "shutdown"): void;
  /** Told when a routed session is opened (first call, or first after eviction): metrics. */
  onOpened?(session: Session): void;
  /**
   * Takes the session's state-folder lock (`--state-lock session`: servers sharing a state dir hold
   * sessions, not workspaces); returns its release. Throwing refuses the call.
   */
  lockSession?(session: Session): () => void;
}

interface Entry {
  readonly session: Session;
  /** The warm start (replay of the saved finalize); calls wait for it. */
  readonly ready: Promise<void>;
  calls: number;
  idleTimer: NodeJS.Timeout | undefined;
  /** Set once eviction started; a call arriving meanwhile waits and then starts the session afresh. */
  closing: Promise<void> | undefined;
  /** Releases the session's state-folder lock, when sessions are locked one by one. */
  unlock: (() => void) | undefined;
}

export class SessionRegistry {
  readonly limits: SessionLimits;
  readonly #options: SessionRegistryOptions;
  readonly #sessions = new Map<string, Entry>();
  #closed = false;
  /** Sessions evicted for idleness since start (for metrics). */
  evictions = 0;

  constructor(options: SessionRegistryOptions) {
    this.#options = options;
    this.limits = {
      maxSessions: options.limits?.maxSessions ?? DEFAULT_MAX_SESSIONS,
      maxCallsPerSession: options.limits?.maxCallsPerSession ?? DEFAULT_MAX_CALLS_PER_SESSION,
      idleTimeoutMs: options.limits?.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    };
  }

  /** The default session (calls without the header). */
  get defaultSession(): Session {
    return this.#options.defaultSession;
  }

  /** Routed sessions held now (live or closing). */
  get size(): number {
    return this.#sessions.size;
  }

  /** The live routed session of `id`, if one is held (tests, metrics). */
  peek(id: string): Session | undefined {
    const entry = this.#sessions.get(id);
    return entry && !entry.closing ? entry.session : undefined;
  }

  /** The session a call's metadata names, without holding it (for tests and single reads). */
  async sessionFor(metadata: Metadata): Promise<Session> {
    return this.run(metadata, (session) => session);
  }

  /**
   * Runs `fn` in the session the call names, counted as one of its running calls. Rejects with a
   * ServiceError: INVALID_ARGUMENT for an unusable header, RESOURCE_EXHAUSTED past a limit,
   * UNAVAILABLE once the registry is closing.
   */
  run<T>(metadata: Metadata, fn: (session: Session) => Promise<T> | T): Promise<T> {
    try {
      return Promise.resolve(this.runNow(metadata, fn));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * As {@link run}, but in the default session `fn`'s answer comes back as `fn` gave it (an answer
   * made at once is no promise, issue #18), and an unusable header or a throw of `fn` there is thrown;
   * a routed session's answer is a promise, as with `run`.
   */
  runNow<T>(metadata: Metadata, fn: (session: Session) => Promise<T> | T): Promise<T> | T {
    const id = sessionIdOf(metadata);
    // The default session is the single-tenant mode of before: no per-session call limit.
    if (id === undefined) return fn(this.#options.defaultSession);
    return this.#runRouted(id, fn);
  }

  async #runRouted<T>(id: string, fn: (session: Session) => Promise<T> | T): Promise<T> {
    const entry = await this.#acquire(id);
    try {
      return await fn(entry.session);
    } finally {
      this.#release(id, entry);
    }
  }

  async #acquire(id: string): Promise<Entry> {
    for (;;) {
      if (this.#closed) throw grpcError(GrpcStatus.UNAVAILABLE, "The server is shutting down");
      let entry = this.#sessions.get(id);
      if (entry?.closing) {
        await entry.closing;
        continue;
      }
      if (!entry) {
        if (this.#sessions.size >= this.limits.maxSessions) {
          throw grpcError(
            GrpcStatus.RESOURCE_EXHAUSTED,
            `This server holds its maximum of ${this.limits.maxSessions} sessions; session '${id}' cannot start. ` +
              `Retry later (idle sessions are evicted after ${this.limits.idleTimeoutMs} ms), reuse a session id, or raise --max-sessions.`,
          );
        }
        entry = this.#open(id);
      }
      // Counted before the warm start finishes, so that an eviction cannot start under a waiting call.
      if (entry.calls >= this.limits.maxCallsPerSession) throw tooManyCalls(this.limits.maxCallsPerSession, id);
      entry.calls++;
      if (entry.idleTimer) {
        clearTimeout(entry.idleTimer);
        entry.idleTimer = undefined;
      }
      await entry.ready;
      return entry;
    }
  }

  #open(id: string): Entry {
    const session = this.#options.createSession(id, sessionFolderName(id));
    let unlock: (() => void) | undefined;
    try {
      unlock = this.#options.lockSession?.(session);
    } catch (error) {
      // Held elsewhere: this Session never opens (onOpened is not told), so nothing keeps or counts it.
      void session.close().catch(() => undefined);
      throw error;
    }
    const entry: Entry = { session, ready: this.#warmStart(session), calls: 0, idleTimer: undefined, closing: undefined, unlock };
    this.#sessions.set(id, entry);
    this.#options.onOpened?.(session);
    return entry;
  }

  /** Replays the finalize the session saved, so it continues with its toolset and state. */
  async #warmStart(session: Session): Promise<void> {
    const log = this.#options.log;
    try {
      const saved = await loadSavedFinalize(session.sessionDir, log);
      if (!saved) return;
      const outcome = await session.finalize({ ...saved, sessionId: session.id, restoring: true });
      if (outcome.ok) log.info({ session: session.id, tools: outcome.tools.length }, "session warm-started from its state folder");
      else log.warn({ session: session.id, message: outcome.message }, "the saved toolset no longer finalizes; the session starts unfinalized");
    } catch (error) {
      log.error({ err: error, session: session.id }, "warm start failed; the session starts unfinalized");
    }
  }

  #release(id: string, entry: Entry): void {
    entry.calls--;
    if (entry.calls > 0 || entry.closing || this.#closed || this.limits.idleTimeoutMs <= 0) return;
    entry.idleTimer = setTimeout(() => {
      entry.idleTimer = undefined;
      if (entry.calls === 0 && !entry.closing) void this.#evict(id, entry, "idle");
    }, this.limits.idleTimeoutMs);
    entry.idleTimer.unref();
  }

  /** Flushes the session's state, kills its tasks (service disposal) and forgets it. */
  #evict(id: string, entry: Entry, reason: "idle" | "shutdown"): Promise<void> {
    if (entry.closing) return entry.closing;
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    if (reason === "idle") this.evictions++;
    entry.closing = (async () => {
      try {
        await entry.session.close();
      } catch (error) {
        this.#options.log.error({ err: error, session: id }, "closing a session failed");
      }
      entry.unlock?.();
      this.#options.onClosed?.(entry.session, reason);
      this.#options.log.info({ session: id, reason }, "session closed");
    })().finally(() => {
      if (this.#sessions.get(id) === entry) this.#sessions.delete(id);
    });
    return entry.closing;
  }

  /** Evicts every routed session with no running call now (as the idle timeout would); returns how many. */
  async evictIdle(): Promise<number> {
    const idle = [...this.#sessions].filter(([, e]) => e.calls === 0 && !e.closing);
    await Promise.all(idle.map(([id, e]) => this.#evict(id, e, "idle")));
    return idle.length;
  }

  /** Closes every routed session (after the server stopped taking calls); the default one is the server's. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#sessions].map(([id, e]) => this.#evict(id, e, "shutdown")));
  }
}

function tooManyCalls(max: number, id: string): Error {
  return grpcError(
    GrpcStatus.RESOURCE_EXHAUSTED,
    `Session '${id}' already runs ${max} calls at once (the limit); wait for some to finish, or raise --max-calls-per-session.`,
  );
}

export { SESSION_ID_HEADER };
