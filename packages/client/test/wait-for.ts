/** Resolves once `condition()` holds, polled every 10 ms; throws after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}
