// CallCancellation stands in for an AbortController per call (issue #18): whatever the runtime
// relies on must behave as with a real AbortSignal. Each case runs against both and compares.
import { describe, expect, it } from "@jest/globals";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ErrorCode, ToolError, Type, defineNamespace, defineTool } from "../index.js";
import { CallCancellation, Session, ToolRegistry, type CallSignal } from "../host.js";
import { unlessAborted } from "../session/call-results.js";

/** A signal and how to abort it, from either implementation. */
interface Pair {
  signal: CallSignal;
  abort(reason?: unknown): void;
}

const kinds: Array<[string, () => Pair]> = [
  [
    "AbortController",
    () => {
      const controller = new AbortController();
      return { signal: controller.signal, abort: (reason) => controller.abort(reason) };
    },
  ],
  [
    "CallCancellation",
    () => {
      const cancellation = new CallCancellation();
      return { signal: cancellation, abort: (reason) => cancellation.abort(reason) };
    },
  ],
];

/** Runs `scenario` with both kinds; returns what each recorded. */
function bothRecord(scenario: (pair: Pair, seen: string[]) => void): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, make] of kinds) {
    const seen: string[] = [];
    scenario(make(), seen);
    out[name] = seen;
  }
  return out;
}

describe("CallCancellation behaves as an AbortSignal where the runtime relies on it", () => {
  it("only the first abort counts, and its reason stays", () => {
    const seen = bothRecord(({ signal, abort }, log) => {
      log.push(`before:${signal.aborted}`);
      abort("first");
      abort("second");
      log.push(`after:${signal.aborted}:${String(signal.reason)}`);
    });
    expect(seen.CallCancellation).toEqual(["before:false", "after:true:first"]);
    expect(seen.CallCancellation).toEqual(seen.AbortController);
  });

  it("listeners run once each, in the order they were added", () => {
    const seen = bothRecord(({ signal, abort }, log) => {
      signal.addEventListener("abort", () => log.push("a"), { once: true });
      signal.addEventListener("abort", () => log.push("b"));
      abort();
      abort();
    });
    expect(seen.CallCancellation).toEqual(["a", "b"]);
    expect(seen.CallCancellation).toEqual(seen.AbortController);
  });

  it("a listener removed before the abort, or by an earlier listener during it, does not run", () => {
    const seen = bothRecord(({ signal, abort }, log) => {
      const removedEarly = () => log.push("removed early");
      const removedByFirst = () => log.push("removed by first");
      signal.addEventListener("abort", removedEarly);
      signal.addEventListener("abort", () => {
        log.push("first");
        signal.removeEventListener("abort", removedByFirst);
      });
      signal.addEventListener("abort", removedByFirst);
      signal.addEventListener("abort", () => log.push("last"));
      signal.removeEventListener("abort", removedEarly);
      signal.removeEventListener("abort", () => log.push("never added"));
      abort();
    });
    expect(seen.CallCancellation).toEqual(["first", "last"]);
    expect(seen.CallCancellation).toEqual(seen.AbortController);
  });

  it("a listener added after the abort is not called", () => {
    const seen = bothRecord(({ signal, abort }, log) => {
      abort();
      signal.addEventListener("abort", () => log.push("late"), { once: true });
      log.push(`aborted:${signal.aborted}`);
    });
    expect(seen.CallCancellation).toEqual(["aborted:true"]);
    expect(seen.CallCancellation).toEqual(seen.AbortController);
  });

  it("defaults the reason to an Error, and still runs every listener when one throws", () => {
    const cancellation = new CallCancellation();
    const heard: string[] = [];
    cancellation.addEventListener("abort", () => {
      throw new Error("listener failed");
    });
    cancellation.addEventListener("abort", () => heard.push("second"));
    expect(() => cancellation.abort()).toThrow("listener failed");
    expect(heard).toEqual(["second"]);
    expect(cancellation.reason).toBeInstanceOf(Error);
    expect((cancellation.reason as Error).message).toBe("cancelled");
  });

  it.each(kinds)("unlessAborted with a %s: the promise's value, or 'aborted' once it aborts", async (_name, make) => {
    const settled = make();
    await expect(unlessAborted(Promise.resolve(7), settled.signal)).resolves.toBe(7);
    const waiting = make();
    const never = new Promise<number>(() => undefined);
    const raced = unlessAborted(never, waiting.signal);
    waiting.abort();
    await expect(raced).resolves.toBe("aborted");
    const already = make();
    already.abort();
    await expect(unlessAborted(Promise.resolve(1), already.signal)).resolves.toBe("aborted");
  });
});

describe("a call cancelled through a CallCancellation", () => {
  const Input = Type.Object({ delay_ms: Type.Number() });
  const Output = Type.Object({ type: Type.Literal("Waited") });
  let toolSawAbort = false;
  let starts = 0;
  const wait = defineTool({
    id: "wait",
    kind: "read",
    description: "Waits unless cancelled.",
    input: Input,
    output: Output,
    async execute(input, ctx) {
      starts += 1;
      const aborted = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), input.delay_ms);
        ctx.signal.addEventListener("abort", () => (clearTimeout(timer), resolve(true)), { once: true });
      });
      toolSawAbort = aborted;
      if (aborted) throw new ToolError(ErrorCode.CANCELLED, "stopped");
      return { output: { type: "Waited" as const }, promptText: "waited" };
    },
  });

  it("answers CANCELLED at once, and the tool's own AbortSignal hears it; an earlier cancel never starts the tool", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "grok-call-cancel-"));
    const session = new Session({
      registry: ToolRegistry.of([defineNamespace({ name: "Cancel", apiVersion: 1, tools: [wait] })]),
      workspace: dir,
      stateDir: path.join(dir, ".state"),
    });
    try {
      const finalized = await session.finalize({ tools: [{ id: "Cancel:wait" }] });
      expect(finalized.ok).toBe(true);
      const cancellation = new CallCancellation();
      const started = Date.now();
      const pending = session.execute({ toolName: "wait", inputJson: JSON.stringify({ delay_ms: 5_000 }), signal: cancellation });
      setTimeout(() => cancellation.abort(), 30);
      const outcome = await pending;
      expect(outcome).toMatchObject({ ok: false, error: { code: ErrorCode.CANCELLED } });
      expect(Date.now() - started).toBeLessThan(4_000);
      // The tool's signal is told in the same turn as the answer; its own rejection follows.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(toolSawAbort).toBe(true);

      const startsBefore = starts;
      const early = new CallCancellation();
      early.abort();
      const before = await session.execute({ toolName: "wait", inputJson: JSON.stringify({ delay_ms: 1 }), signal: early });
      expect(before).toMatchObject({ ok: false, error: { code: ErrorCode.CANCELLED } });
      expect(starts).toBe(startsBefore);

      const untouched = await session.execute({ toolName: "wait", inputJson: JSON.stringify({ delay_ms: 1 }), signal: new CallCancellation() });
      expect(untouched.ok).toBe(true);
      expect(starts).toBe(startsBefore + 1);
    } finally {
      await session.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a CallCancellation over a cancel source (the server's gRPC call)", () => {
  /** A stand-in for a grpc-js server call: its flag, set before its "cancelled" event. */
  class FakeCall extends EventEmitter {
    cancelled = false;
    cancel(): void {
      this.cancelled = true;
      this.emit("cancelled", "cancelled");
    }
  }

  it("reads the source's flag whenever asked, so a cancel before anyone listened is seen", () => {
    const call = new FakeCall();
    const cancellation = new CallCancellation(call);
    expect(cancellation.aborted).toBe(false);
    call.cancel();
    expect(call.listenerCount("cancelled")).toBe(0);
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.reason).toEqual(new Error("cancelled"));
    // As an AbortSignal: a listener added after the abort is not called, and nothing subscribes.
    let heard = 0;
    cancellation.addEventListener("abort", () => heard++);
    expect(heard).toBe(0);
    expect(call.listenerCount("cancelled")).toBe(0);
  });

  it("listens to the source only while it has listeners, and tells them of its cancel once", () => {
    const call = new FakeCall();
    const cancellation = new CallCancellation(call);
    const first = () => undefined;
    cancellation.addEventListener("abort", first);
    expect(call.listenerCount("cancelled")).toBe(1);
    cancellation.removeEventListener("abort", first);
    expect(call.listenerCount("cancelled")).toBe(0);

    const heard: string[] = [];
    cancellation.addEventListener("abort", () => heard.push("a"));
    cancellation.addEventListener("abort", () => heard.push("b"));
    expect(call.listenerCount("cancelled")).toBe(1);
    call.cancel();
    call.emit("cancelled");
    expect(heard).toEqual(["a", "b"]);
    expect(cancellation.aborted).toBe(true);
    expect(call.listenerCount("cancelled")).toBe(0);
  });

  it("a call whose tool waits is answered CANCELLED when the source is cancelled; a tool that answers at once never subscribes", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "grok-call-cancel-source-"));
    const instant = defineTool({
      id: "instant",
      kind: "read",
      description: "Answers at once.",
      input: Type.Object({}),
      output: Type.Object({ type: Type.Literal("Done") }),
      execute: () => ({ output: { type: "Done" as const }, promptText: "done" }),
    });
    const slow = defineTool({
      id: "slow",
      kind: "read",
      description: "Waits a while.",
      input: Type.Object({}),
      output: Type.Object({ type: Type.Literal("Done") }),
      execute: () =>
        new Promise<{ output: { type: "Done" }; promptText: string }>((resolve) =>
          setTimeout(() => resolve({ output: { type: "Done" as const }, promptText: "done" }), 5_000).unref(),
        ),
    });
    const session = new Session({
      registry: ToolRegistry.of([defineNamespace({ name: "Source", apiVersion: 1, tools: [instant, slow] })]),
      workspace: dir,
      stateDir: path.join(dir, ".state"),
    });
    try {
      expect((await session.finalize({ tools: [{ id: "Source:instant" }, { id: "Source:slow" }] })).ok).toBe(true);
      const quiet = new FakeCall();
      let subscribed = 0;
      quiet.on("newListener", (event) => event === "cancelled" && subscribed++);
      expect(await session.execute({ toolName: "instant", inputJson: "{}", signal: new CallCancellation(quiet) })).toMatchObject({ ok: true });
      expect(subscribed).toBe(0);

      const call = new FakeCall();
      const pending = session.execute({ toolName: "slow", inputJson: "{}", signal: new CallCancellation(call) });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(call.listenerCount("cancelled")).toBe(1);
      call.cancel();
      expect(await pending).toMatchObject({ ok: false, error: { code: ErrorCode.CANCELLED } });
      expect(call.listenerCount("cancelled")).toBe(0);

      const early = new FakeCall();
      early.cancelled = true;
      expect(await session.execute({ toolName: "instant", inputJson: "{}", signal: new CallCancellation(early) })).toMatchObject({
        ok: false,
        error: { code: ErrorCode.CANCELLED },
      });
    } finally {
      await session.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
