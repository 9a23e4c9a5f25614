/**
 * The calls a session is running, as a count: GetToolState and close wait until none runs,
 * including calls started while they wait. A count rather than a set of the calls' promises: a
 * cheap call then adds no `finally` promise and no set entry (issue #18).
 */
export class CallsInFlight {
  #count = 0;
  #idle: { promise: Promise<void>; resolve: () => void } | undefined;

  /** How many calls run now. */
  get count(): number {
    return this.#count;
  }

  /** A call started. */
  begin(): void {
    this.#count++;
  }

  /** A call ended (once per {@link begin}). */
  end(): void {
    if (this.#count === 0) throw new Error("CallsInFlight.end() without a begin()");
    this.#count--;
    if (this.#count === 0 && this.#idle !== undefined) {
      const { resolve } = this.#idle;
      this.#idle = undefined;
      resolve();
    }
  }

  /** Resolves once no call runs (at once when none does). */
  idle(): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    if (this.#idle === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((settle) => (resolve = settle));
      this.#idle = { promise, resolve };
    }
    return this.#idle.promise;
  }
}
