/** The per-call options every client method takes (kept apart so the RPC table and the client share them). */

/** Per-call options, accepted by every method. */
export interface CallOptions {
  /** Deadline of this call in milliseconds from now; overrides the client's default. */
  deadlineMs?: number;
  /** Cancels the call when aborted (the promise rejects with CANCELLED). */
  signal?: AbortSignal;
  /** Extra request metadata. */
  metadata?: Record<string, string>;
}
