/**
 * The serializable resources of one session (tool params and tool state), keyed
 * by stable ids such as `grok_build.Todo`. Ephemeral things (cwd, terminals,
 * clients) are session services instead and never serialized here.
 */

/** The two serialized categories of spec §5.2. */
export type ResourceCategory = "params" | "state";

/** A typed handle on one resource. */
export interface ResourceKey<T> {
  readonly id: string;
  readonly category: ResourceCategory;
  /** The value a session starts with. */
  initial(): T;
  /** Turns stored JSON back into a value, or undefined when it does not fit (then it is ignored). */
  decode(json: unknown): T | undefined;
}

/** Declares a resource. `decode` defaults to accepting any JSON object. */
export function defineResource<T>(spec: {
  id: string;
  category: ResourceCategory;
  initial: () => T;
  decode?: (json: unknown) => T | undefined;
}): ResourceKey<T> {
  return Object.freeze({
    id: spec.id,
    category: spec.category,
    initial: spec.initial,
    decode: spec.decode ?? ((json: unknown) => (isPlainObject(json) ? (json as T) : undefined)),
  });
}

/** JSON shape of GetToolState: categories with no entries are omitted. */
export interface SerializedResources {
  params?: Record<string, unknown>;
  state?: Record<string, unknown>;
}

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Whether a key may be used as a resource id or an object key coming from outside. */
export function isSafeKey(key: string): boolean {
  return !FORBIDDEN_KEYS.has(key);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A session's resource values, with change notification for persistence. */
export class ResourceStore {
  readonly #values = new Map<string, { category: ResourceCategory; value: unknown }>();
  readonly #known = new Map<string, ResourceKey<unknown>>();
  readonly #listeners = new Set<() => void>();

  /** Registers a resource so that loads and merges accept its id. */
  register<T>(key: ResourceKey<T>): void {
    this.#known.set(slot(key.category, key.id), key as ResourceKey<unknown>);
  }

  /** The current value, creating the initial one on first use. */
  get<T>(key: ResourceKey<T>): T {
    this.register(key);
    const found = this.#values.get(slot(key.category, key.id));
    if (found) return found.value as T;
    const initial = key.initial();
    this.#values.set(slot(key.category, key.id), { category: key.category, value: initial });
    return initial;
  }

  /** Whether the resource has a value. */
  has(key: ResourceKey<unknown>): boolean {
    return this.#values.has(slot(key.category, key.id));
  }

  set<T>(key: ResourceKey<T>, value: T): void {
    this.register(key);
    this.#values.set(slot(key.category, key.id), { category: key.category, value });
    this.#changed();
  }

  /** Replaces the value with `fn(current)`. */
  update<T>(key: ResourceKey<T>, fn: (current: T) => T): T {
    const next = fn(this.get(key));
    this.set(key, next);
    return next;
  }

  /** Called after every change; returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** `{params, state}` with only the categories that have entries (spec §5.2). */
  serialize(): SerializedResources {
    const out: SerializedResources = {};
    for (const [key, entry] of this.#values) {
      const id = key.slice(key.indexOf("/") + 1);
      (out[entry.category] ??= {})[id] = structuredClone(entry.value);
    }
    return out;
  }

  /**
   * Applies a serialized snapshot: each present, registered (category, id) whose value decodes
   * replaces the current value wholesale; everything else is left alone (spec §5.4).
   * Returns the ids applied and the ones ignored, for logging.
   */
  merge(snapshot: unknown, only?: ReadonlySet<ResourceCategory>): { applied: string[]; ignored: string[] } {
    const applied: string[] = [];
    const ignored: string[] = [];
    if (!isPlainObject(snapshot)) return { applied, ignored };
    for (const category of ["params", "state"] as const) {
      if (only && !only.has(category)) continue;
      const entries = snapshot[category];
      if (!isPlainObject(entries)) continue;
      for (const [id, json] of Object.entries(entries)) {
        const key = this.#known.get(slot(category, id));
        const value = key && isSafeKey(id) ? key.decode(json) : undefined;
        if (key === undefined || value === undefined) {
          ignored.push(`${category}.${id}`);
          continue;
        }
        this.#values.set(slot(category, id), { category, value });
        applied.push(`${category}.${id}`);
      }
    }
    if (applied.length > 0) this.#changed();
    return { applied, ignored };
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

function slot(category: ResourceCategory, id: string): string {
  return `${category}/${id}`;
}
