// Issue #21: a side-effect call with a caller-given call_id that is cut by its cancellation or its
// deadline answers at once, but its tool body may go on and apply its effect. The record stays in
// flight until the body settled: a retry with the same call_id waits for it and is answered with
// its outcome (replayed), and runs the tool again only when the first run ended CANCELLED (never
// started, or stopped on the cancellation before doing anything). Appends make a double run visible.
import { describe, expect, it } from "@jest/globals";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ErrorCode, ToolError, Type, defineNamespace, defineTool } from "../index.js";
import { Session, ToolRegistry } from "../host.js";

const Input = Type.Object({ delay_ms: Type.Number() });
const Output = Type.Object({ type: Type.Literal("Appended"), stopped: Type.Boolean() });
const FILE = "log.txt";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits `ms` or until `signal` aborts; says which. */
function sleepOrAbort(ms: number, signal: AbortSignal): Promise<"slept" | "aborted"> {
  if (signal.aborted) return Promise.resolve("aborted");
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("slept"), ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve("aborted")), { once: true });
  });
}

const append = (cwd: string) => appendFileSync(path.join(cwd, FILE), "x\n");
const done = (stopped = false) => ({ output: { type: "Appended" as const, stopped }, promptText: stopped ? "stopped" : "appended" });

/** Ignores the cancellation: appends after its delay whatever happens. */
const slowAppend = defineTool({
  id: "slow_append",
  kind: "edit",
  description: "Appends after a delay.",
  input: Input,
  output: Output,
  async execute(input, ctx) {
    await sleep(input.delay_ms);
    append(ctx.cwd);
    return done();
  },
});

/** Stops on the cancellation before it changed anything (CANCELLED). */
const stoppableAppend = defineTool({
  id: "stoppable_append",
  kind: "edit",
  description: "Appends after a delay unless cancelled.",
  input: Input,
  output: Output,
  async execute(input, ctx) {
    if ((await sleepOrAbort(input.delay_ms, ctx.signal)) === "aborted") throw new ToolError(ErrorCode.CANCELLED, "stopped before appending");
    append(ctx.cwd);
    return done();
  },
});

/** Appends first, then works until cancelled, and says it was stopped (as a killed command does). */
const appendThenWork = defineTool({
  id: "append_then_work",
  kind: "execute",
  description: "Appends, then works for a while.",
  input: Input,
  output: Output,
  async execute(input, ctx) {
    append(ctx.cwd);
    return done((await sleepOrAbort(input.delay_ms, ctx.signal)) === "aborted");
  },
});

async function withSession(run: (session: Session, lines: () => number) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "grok-idem-cancel-"));
  const session = new Session({
    registry: ToolRegistry.of([defineNamespace({ name: "Idem", apiVersion: 1, tools: [slowAppend, stoppableAppend, appendThenWork] })]),
    workspace: dir,
    stateDir: path.join(dir, ".state"),
  });
  try {
    const out = await session.finalize({ tools: [{ id: "Idem:slow_append" }, { id: "Idem:stoppable_append" }, { id: "Idem:append_then_work" }] });
    if (!out.ok) throw new Error(out.message);
    const file = path.join(dir, FILE);
    await run(session, () => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0));
  } finally {
    await session.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A call cancelled `afterMs` after it started. */
function cancelledCall(session: Session, toolName: string, delayMs: number, callId: string, afterMs: number) {
  const controller = new AbortController();
  const started = Date.now();
  const outcome = session.execute({ toolName, inputJson: JSON.stringify({ delay_ms: delayMs }), callId, signal: controller.signal });
  setTimeout(() => controller.abort(), afterMs);
  return outcome.then((o) => ({ outcome: o, elapsed: Date.now() - started }));
}

const call = (session: Session, toolName: string, delayMs: number, callId: string, extra: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
  session.execute({ toolName, inputJson: JSON.stringify({ delay_ms: delayMs }), callId, ...extra });

describe("a cut call with a call_id: the retry waits for the body and never runs it twice", () => {
  it("cancelled while the body runs on: answered CANCELLED at once; a retry meanwhile waits and replays the body's result", async () => {
    await withSession(async (session, lines) => {
      const first = await cancelledCall(session, "slow_append", 400, "c1", 50);
      expect(first.outcome).toMatchObject({ ok: false, error: { code: ErrorCode.CANCELLED } });
      expect(first.elapsed).toBeLessThan(350);
      expect(lines()).toBe(0);
      // The retry arrives while the first body still runs: it waits for it instead of running again.
      const retry = await call(session, "slow_append", 400, "c1");
      expect(retry).toMatchObject({ ok: true, promptText: "appended", replayed: true, callId: "c1" });
      expect(lines()).toBe(1);
      // Later repeats are replays too; the effect stays single.
      await sleep(50);
      expect(await call(session, "slow_append", 400, "c1")).toMatchObject({ ok: true, replayed: true });
      expect(lines()).toBe(1);
    });
  });

  it("a deadline (timeout_ms) that cuts the call: TIMEOUT at once, the retry gets the body's real result", async () => {
    await withSession(async (session, lines) => {
      const first = await call(session, "slow_append", 300, "t1", { timeoutMs: 50 });
      expect(first).toMatchObject({ ok: false, error: { code: ErrorCode.TIMEOUT } });
      const retry = await call(session, "slow_append", 300, "t1", { timeoutMs: 50 });
      expect(retry).toMatchObject({ ok: true, promptText: "appended", replayed: true });
      expect(lines()).toBe(1);
    });
  });

  it("a body that applied its effect and then was stopped by the cancellation is replayed as it ended, not run again", async () => {
    await withSession(async (session, lines) => {
      const first = await cancelledCall(session, "append_then_work", 10_000, "k1", 50);
      expect(first.outcome).toMatchObject({ ok: false, error: { code: ErrorCode.CANCELLED } });
      expect(lines()).toBe(1);
      const retry = await call(session, "append_then_work", 10_000, "k1");
      expect(retry).toMatchObject({ ok: true, promptText: "stopped", replayed: true });
      expect(lines()).toBe(1);
    });
  });

  it("a body that ended CANCELLED before changing anything is not kept: the retry runs the tool, once", async () => {
    await withSession(async (session, lines) => {
      const first = await cancelledCall(session, "stoppable_append", 300, "s1", 50);
      expect(first.outcome).toMatchObject({ ok: false, error: { code: ErrorCode.CANCELLED } });
      const retry = await call(session, "stoppable_append", 300, "s1");
      expect(retry).toMatchObject({ ok: true, promptText: "appended" });
      expect(retry.replayed).toBeUndefined();
      expect(lines()).toBe(1);
      expect(await call(session, "stoppable_append", 300, "s1")).toMatchObject({ ok: true, replayed: true });
      expect(lines()).toBe(1);
    });
  });

  it("cancelled before the body started: the tool never runs, and the retry runs it", async () => {
    await withSession(async (session, lines) => {
      const controller = new AbortController();
      controller.abort();
      const first = await call(session, "slow_append", 0, "p1", { signal: controller.signal });
      expect(first).toMatchObject({ ok: false, error: { code: ErrorCode.CANCELLED } });
      await sleep(50);
      expect(lines()).toBe(0);
      const retry = await call(session, "slow_append", 0, "p1");
      expect(retry).toMatchObject({ ok: true });
      expect(retry.replayed).toBeUndefined();
      expect(lines()).toBe(1);
    });
  });

  it("a waiting retry whose own caller cancels answers CANCELLED at once; the first body's result is still kept", async () => {
    await withSession(async (session, lines) => {
      await cancelledCall(session, "slow_append", 400, "w1", 20);
      const waiting = new AbortController();
      const started = Date.now();
      const retry = call(session, "slow_append", 400, "w1", { signal: waiting.signal });
      setTimeout(() => waiting.abort(), 50);
      expect(await retry).toMatchObject({ ok: false, error: { code: ErrorCode.CANCELLED } });
      expect(Date.now() - started).toBeLessThan(300);
      await sleep(450);
      expect(await call(session, "slow_append", 400, "w1")).toMatchObject({ ok: true, replayed: true });
      expect(lines()).toBe(1);
    });
  });
});
