/**
 * Session services: ephemeral, session-scoped objects (task manager, file access,
 * read tracker, terminal) created on first use, so that nothing lives in module globals.
 */

/** A typed handle on a session service, with the factory that creates it. */
export interface ServiceKey<T, S = unknown> {
  readonly name: string;
  create(session: S): T;
  /** Called when the session closes. */
  dispose?(service: T): void | Promise<void>;
}

/** Declares a session service. */
export function defineService<T, S = unknown>(spec: ServiceKey<T, S>): ServiceKey<T, S> {
  return Object.freeze({ ...spec });
}
