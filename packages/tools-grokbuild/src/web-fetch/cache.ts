/** In-memory cache of fetched text pages (TTL and entry cap); truncated results are never cached. */
import type { WebFetchOutput } from "./schema.js";

interface Entry {
  output: WebFetchOutput;
  insertedAtMs: number;
}

/** A per-session page cache keyed by the normalized URL. */
export class FetchCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    readonly ttlMs: number,
    readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached output, when present and younger than the TTL. */
  get(url: string): WebFetchOutput | undefined {
    const entry = this.#entries.get(url);
    if (entry === undefined) return undefined;
    if (this.now() - entry.insertedAtMs >= this.ttlMs) {
      this.#entries.delete(url);
      return undefined;
    }
    return entry.output;
  }

  /** Caches an inline text result; results that point at session files are never cached. */
  insert(url: string, output: WebFetchOutput, truncated: boolean): void {
    if (truncated || this.maxEntries === 0) return;
    this.#entries.delete(url);
    if (this.#entries.size >= this.maxEntries) {
      // Evict the oldest (Map iteration follows insertion order).
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(url, { output, insertedAtMs: this.now() });
  }

  /** Number of entries held (expired ones included until read). */
  get size(): number {
    return this.#entries.size;
  }
}
