/**
 * Per-path read/write locks, one set per session: edits of one file run one after another, so
 * concurrent calls never lose an update, and a read of a file never overlaps the session's own
 * replace of it (issue #13), while reads of one file share the lock. Waiters are served in
 * arrival order, so a stream of reads cannot starve an edit. Not a cross-process lock.
 */
import { defineService } from "../tool/service.js";

interface Waiter {
  shared: boolean;
  grant: () => void;
}

interface LockState {
  readers: number;
  writer: boolean;
  queue: Waiter[];
}

/** Serializes writers per key; readers of a key run together. */
export class PathLocks {
  readonly #states = new Map<string, LockState>();

  /** Runs `fn` alone on `key`: after every earlier holder, before every later one. */
  withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.#run(key, false, fn);
  }

  /** Runs `fn` beside other shared holders of `key`, but never beside an exclusive one. */
  withSharedLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.#run(key, true, fn);
  }

  /**
   * Whether a shared holder of `key` would start at once (no exclusive holder, nobody queued). Work
   * that checks this and finishes without awaiting has run as a shared holder would (read_file's
   * synchronous read, issue #18).
   */
  canShareNow(key: string): boolean {
    const state = this.#states.get(key);
    return state === undefined || (!state.writer && state.queue.length === 0);
  }

  /** Number of keys with queued or running work (for tests). */
  get size(): number {
    return this.#states.size;
  }

  async #run<T>(key: string, shared: boolean, fn: () => Promise<T>): Promise<T> {
    await this.#acquire(key, shared);
    try {
      return await fn();
    } finally {
      this.#release(key, shared);
    }
  }

  #acquire(key: string, shared: boolean): Promise<void> {
    let state = this.#states.get(key);
    if (state === undefined) {
      state = { readers: 0, writer: false, queue: [] };
      this.#states.set(key, state);
    }
    const free = state.queue.length === 0 && !state.writer && (shared || state.readers === 0);
    if (free) {
      if (shared) state.readers++;
      else state.writer = true;
      return Promise.resolve();
    }
    const current = state;
    return new Promise((resolve) => current.queue.push({ shared, grant: resolve }));
  }

  #release(key: string, shared: boolean): void {
    const state = this.#states.get(key);
    if (state === undefined) return;
    if (shared) state.readers--;
    else state.writer = false;
    while (state.queue.length > 0 && !state.writer) {
      const head = state.queue[0]!;
      if (!head.shared && state.readers > 0) break;
      state.queue.shift();
      if (head.shared) state.readers++;
      else state.writer = true;
      head.grant();
    }
    if (state.queue.length === 0 && !state.writer && state.readers === 0) this.#states.delete(key);
  }
}

/** The session's path locks: `ctx.session.service(PATH_LOCKS).withLock(realPath, fn)`. */
export const PATH_LOCKS = defineService<PathLocks>({ name: "runtime.PathLocks", create: () => new PathLocks() });
