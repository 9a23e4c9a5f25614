/**
 * A per-path async lock, one per session: edits of one file run one after another, so concurrent
 * calls never lose an update. Not a cross-process lock.
 */
import { defineService } from "../session/session-service.js";

/** Serializes async work per key. */
export class PathLocks {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` once every earlier holder of `key` has finished. */
  async withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.#tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  /** Number of keys with queued or running work (for tests). */
  get size(): number {
    return this.#tails.size;
  }
}

/** The session's path locks: `ctx.session.service(PATH_LOCKS).withLock(realPath, fn)`. */
export const PATH_LOCKS = defineService<PathLocks>({ name: "runtime.PathLocks", create: () => new PathLocks() });
