/**
 * Resources: a tool's or a reminder's serializable params and state, declared with a stable id
 * (`acme.Counter`) so that they travel in GetToolState and the state file. The session's
 * `ResourceStore` holds the values.
 */
import { isPlainObject } from "../core/plain-object.js";

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
