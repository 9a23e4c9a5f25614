/**
 * The serializable resources of one session (tool params and tool state), keyed
 * by stable ids such as `acme.Counter`. Ephemeral things (cwd, terminals,
 * clients) are session services instead and never serialized here.
 */
import { isPlainObject, isSafeKey } from "../core/plain-object.js";
import type { ResourceCategory, ResourceKey } from "../tool/resource.js";

/** JSON shape of GetToolState: categories with no entries are omitted. */
export interface SerializedResources {
  params?: Record<string, unknown>;
  state?: Record<string, unknown>;
}

/** A session's resource values, with change notification for persistence. */
export class ResourceStore {
  readonly #values = new Map<string, { category: ResourceCategory; value: unknown }>();
  readonly #known = new Map<string, ResourceKey<unknown>>();
  /** Loaded values of ids nobody registered yet; decoded when their key is registered, never serialized. */
  readonly #pending = new Map<string, unknown>();
  readonly #listeners = new Set<() => void>();

  /**
   * Registers a resource so that loads and merges accept its id. A value loaded earlier for the
   * id (from disk or initial state) is decoded now and, when it fits, becomes the value.
   */
  register<T>(key: ResourceKey<T>): void {
    this.#registerAt(slotOf(key), key);
  }

  #registerAt<T>(at: string, key: ResourceKey<T>): void {
    if (this.#known.has(at)) return;
    this.#known.set(at, key as ResourceKey<unknown>);
    if (this.#pending.has(at)) {
      const value = key.decode(this.#pending.get(at));
      this.#pending.delete(at);
      if (value !== undefined) this.#values.set(at, { category: key.category, value });
    }
  }

  /** Whether an id is registered in a category. */
  isRegistered(category: ResourceCategory, id: string): boolean {
    return this.#known.has(slot(category, id));
  }

  /** The current value, creating the initial one on first use. */
  get<T>(key: ResourceKey<T>): T {
    const at = slotOf(key);
    this.#registerAt(at, key);
    const found = this.#values.get(at);
    if (found) return found.value as T;
    const initial = key.initial();
    this.#values.set(at, { category: key.category, value: initial });
    return initial;
  }

  /** Whether the resource has a value. */
  has(key: ResourceKey<unknown>): boolean {
    return this.#values.has(slotOf(key));
  }

  set<T>(key: ResourceKey<T>, value: T): void {
    const at = slotOf(key);
    this.#registerAt(at, key);
    this.#values.set(at, { category: key.category, value });
    this.#changed();
  }

  /**
   * Replaces the value with `fn(current)`. When `fn` returns `current` itself nothing changed: no
   * change is signalled, so nothing is written to disk (a read of an unchanged file costs no fsync).
   */
  update<T>(key: ResourceKey<T>, fn: (current: T) => T): T {
    const current = this.get(key);
    const next = fn(current);
    if (next !== current) this.set(key, next);
    return next;
  }

  /** Called after every change; returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** `{params, state}` with only the categories that have entries (spec §5.2). */
  serialize(options: { includeHeld?: boolean } = {}): SerializedResources {
    const out: SerializedResources = {};
    if (options.includeHeld) {
      for (const [key, json] of this.#pending) {
        const category = key.slice(0, key.indexOf("/")) as ResourceCategory;
        (out[category] ??= {})[key.slice(key.indexOf("/") + 1)] = structuredClone(json);
      }
    }
    for (const [key, entry] of this.#values) {
      const id = key.slice(key.indexOf("/") + 1);
      (out[entry.category] ??= {})[id] = structuredClone(entry.value);
    }
    return out;
  }

  /**
   * Applies a serialized snapshot: each present, registered (category, id) whose value decodes
   * replaces the current value wholesale; missing ids keep their values (spec §5.4). With
   * `holdUnknown` (the disk load), values of unregistered ids are held until their key is
   * registered, and kept in `serialize({ includeHeld: true })` so a state file never loses
   * them; otherwise they are ignored. Values that do not decode and prototype keys are
   * ignored. Returns what was applied and ignored, for logging.
   */
  merge(snapshot: unknown, only?: ReadonlySet<ResourceCategory>, options: { holdUnknown?: boolean } = {}): { applied: string[]; ignored: string[] } {
    const applied: string[] = [];
    const ignored: string[] = [];
    if (!isPlainObject(snapshot)) return { applied, ignored };
    for (const category of ["params", "state"] as const) {
      if (only && !only.has(category)) continue;
      const entries = snapshot[category];
      if (!isPlainObject(entries)) continue;
      for (const [id, json] of Object.entries(entries)) {
        if (!isSafeKey(id)) {
          ignored.push(`${category}.${id}`);
          continue;
        }
        const key = this.#known.get(slot(category, id));
        if (key === undefined) {
          if (options.holdUnknown) this.#pending.set(slot(category, id), structuredClone(json));
          ignored.push(`${category}.${id}`);
          continue;
        }
        const value = key.decode(structuredClone(json));
        if (value === undefined) {
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

/**
 * Each key's slot, made once: a slot built per lookup is a new string the map hashes again each
 * time, and a cheap tool call looks its state up several times (issue #18). A key's id and
 * category are fixed once made (defineResource freezes it).
 */
const SLOTS = new WeakMap<ResourceKey<unknown>, string>();

function slotOf(key: ResourceKey<unknown>): string {
  let at = SLOTS.get(key);
  if (at === undefined) {
    at = slot(key.category, key.id);
    SLOTS.set(key, at);
  }
  return at;
}
