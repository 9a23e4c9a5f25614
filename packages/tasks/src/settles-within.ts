/** Whether `promise` settles (either way) within `ms`. */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const settle = () => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(settle, settle);
  });
}

/**
 * Resolves once the event loop has polled for I/O again: `setImmediate` callbacks run right after
 * the poll phase. A timer that fires after a long stretch of synchronous work (the loop blocked
 * past its delay) runs before that turn's poll, while output that arrived meanwhile still waits in
 * its socket; waiting for this before acting on the timeout lets that output be read first.
 */
export function nextIoTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
