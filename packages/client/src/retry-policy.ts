// When and how executeTool retries (issue #21): only UNAVAILABLE and DEADLINE_EXCEEDED, only for
// calls that are safe to repeat (a call_id, which the server uses as an idempotency key, or a tool
// the server described as read-only), with exponential backoff and full jitter.
import { status as GrpcStatus } from "@grpc/grpc-js";

/** Retry settings of a client; `false` turns retries off. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 4). */
  maxAttempts?: number;
  /** Backoff before the first retry, before jitter (default 100 ms). */
  initialBackoffMs?: number;
  /** Largest backoff, before jitter (default 2000 ms). */
  maxBackoffMs?: number;
  /** Growth of the backoff per retry (default 2). */
  multiplier?: number;
  /**
   * Before a retry, how long to wait for the channel to reconnect (default 10 000 ms): after a
   * dropped connection grpc-js fails calls at once until its own reconnect backoff ends.
   */
  reconnectWaitMs?: number;
}

/** The settings with defaults filled in. */
export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, initialBackoffMs: 100, maxBackoffMs: 2000, multiplier: 2, reconnectWaitMs: 10_000 };

/** gRPC statuses after which a safe call is sent again. */
export const RETRYABLE_STATUSES: ReadonlySet<GrpcStatus> = new Set([GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED]);

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy | undefined {
  if (options === false) return undefined;
  const policy = { ...DEFAULT_RETRY_POLICY, ...options };
  return policy.maxAttempts > 1 ? policy : undefined;
}

/** The wait before retry number `retry` (1-based): full jitter over the capped exponential backoff. */
export function backoffMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * policy.multiplier ** (retry - 1));
  return Math.round(random() * cap);
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
