import { describe, expect, it } from "@jest/globals";
import { CallsInFlight } from "./calls-in-flight.js";

describe("CallsInFlight", () => {
  it("is idle at once with no call, and resolves every waiter when the last call ends", async () => {
    const calls = new CallsInFlight();
    await expect(calls.idle()).resolves.toBeUndefined();
    calls.begin();
    calls.begin();
    const order: string[] = [];
    const a = calls.idle().then(() => order.push("a"));
    const b = calls.idle().then(() => order.push("b"));
    calls.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    expect(calls.count).toBe(1);
    calls.end();
    await Promise.all([a, b]);
    expect(order).toEqual(["a", "b"]);
    // A new round waits again.
    calls.begin();
    let later = false;
    const c = calls.idle().then(() => (later = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(later).toBe(false);
    calls.end();
    await c;
    expect(later).toBe(true);
  });

  it("refuses an end without a begin", () => {
    expect(() => new CallsInFlight().end()).toThrow("without a begin");
  });
});
