/**
 * The cancel of one ExecuteTool call, as the runtime listens to it.
 *
 * An AbortController is an EventTarget: making one per call, with its listener bookkeeping, cost
 * about a fifth of the server's CPU for a cheap call (issue #18: 191-215 → 154-167 µs per todo_write
 * in an alternated A/B). A call only needs "is it aborted, why, and tell me once when it is", so
 * `ExecuteRequest.signal` asks for that shape (`CallSignal`), which an AbortSignal also has, and the
 * server hands in a `CallCancellation`, a plain object with the same behaviour.
 */

/** Listener of a call's cancel. */
export type CallAbortListener = () => void;

/**
 * Where a call's cancel comes from, watched only while someone listens: a grpc-js server call has
 * this shape (its `cancelled` flag, set before its "cancelled" event).
 */
export interface CancelSource {
  readonly cancelled: boolean;
  on(event: "cancelled", listener: () => void): unknown;
  off(event: "cancelled", listener: () => void): unknown;
}

/** What the runtime needs of a call's cancel; an AbortSignal is one. */
export interface CallSignal {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: CallAbortListener, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: CallAbortListener): void;
}

/**
 * A call's cancel with AbortController's rules where the runtime relies on them: only the first
 * abort counts (its reason stays), listeners run once in the order they were added, a listener
 * removed by an earlier one during the abort does not run, and one added after the abort is not
 * called; a listener that throws does not stop the others (the first error is thrown once all ran).
 * Being its own signal, it is passed as `signal` and aborted by the server.
 *
 * Given a {@link CancelSource}, it aborts (reason `Error("cancelled")`) when the source is cancelled,
 * and reads the source's flag whenever asked, so a cancel that came before anyone listened is still
 * seen; it subscribes to the source's event only while it has listeners. Most calls are answered
 * without ever listening (a tool body that returns its result), and then cost no subscription (#18).
 */
export class CallCancellation implements CallSignal {
  #listeners: CallAbortListener[] | undefined;
  #aborted = false;
  #reason: unknown;
  readonly #source: CancelSource | undefined;
  #onSourceCancel: (() => void) | undefined;

  constructor(source?: CancelSource) {
    this.#source = source;
  }

  get aborted(): boolean {
    if (!this.#aborted && this.#source?.cancelled) this.abort(new Error("cancelled"));
    return this.#aborted;
  }

  get reason(): unknown {
    if (!this.#aborted && this.#source?.cancelled) this.abort(new Error("cancelled"));
    return this.#reason;
  }

  /** Listeners always run once: a call aborts at most once, so `once` changes nothing. */
  addEventListener(_type: "abort", listener: CallAbortListener, _options?: { once?: boolean }): void {
    // As an AbortSignal: a listener added after the abort is not called.
    if (this.aborted) return;
    (this.#listeners ??= []).push(listener);
    if (this.#source && this.#onSourceCancel === undefined) {
      this.#onSourceCancel = () => this.abort(new Error("cancelled"));
      this.#source.on("cancelled", this.#onSourceCancel);
    }
  }

  removeEventListener(_type: "abort", listener: CallAbortListener): void {
    const listeners = this.#listeners;
    if (!listeners) return;
    const at = listeners.indexOf(listener);
    if (at >= 0) listeners.splice(at, 1);
    if (listeners.length === 0) this.#unsubscribe();
  }

  #unsubscribe(): void {
    if (this.#source && this.#onSourceCancel !== undefined) {
      this.#source.off("cancelled", this.#onSourceCancel);
      this.#onSourceCancel = undefined;
    }
  }

  /** As AbortController.abort: the first call counts; its reason defaults to Error("cancelled"). */
  abort(reason: unknown = new Error("cancelled")): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#unsubscribe();
    const listeners = this.#listeners;
    if (!listeners) return;
    // Run from the live list so a listener removed by an earlier one is skipped; empty it as we go so
    // none runs twice. A listener that throws does not keep the others from hearing the cancel.
    let failure: { error: unknown } | undefined;
    while (listeners.length > 0) {
      const listener = listeners.shift() as CallAbortListener;
      try {
        listener();
      } catch (error) {
        failure ??= { error };
      }
    }
    this.#listeners = undefined;
    if (failure) throw failure.error;
  }
}
