/**
 * A tool body may return its result instead of a promise (issue #18: the call is then answered
 * without the promise, cancel listener and deadline timer a waiting body needs). Whatever it does,
 * the caller gets the same answers as from an async body: results, ToolErrors, INTERNAL for a throw
 * or an output that cannot be encoded, with or without reminders, and GetToolState sees its state.
 * Through `Session.executeNow` such a call that leaves no state to write comes back as its outcome.
 */
import { ToolRegistry, type Session } from "../src/host.js";
import { ErrorCode, ToolError, Type, defineNamespace, defineReminder, defineResource, defineTool } from "../src/index.js";
import { makeSession, tempDirs } from "./fixtures.js";

const counter = defineResource<{ n: number }>({ id: "sync.Counter", category: "state", initial: () => ({ n: 0 }) });

const Input = Type.Object({ mode: Type.String() });
const Output = Type.Object({ type: Type.Literal("Text") }, { additionalProperties: true });

const hint = defineReminder({ id: "sync-hint", collect: () => ["a hint"] });

function syncTool(id: string, reminders: boolean) {
  return defineTool({
    id,
    kind: "other",
    description: "Answers without waiting.",
    input: Input,
    output: Output,
    resources: [counter],
    ...(reminders ? { reminders: [hint] } : {}),
    execute(input, ctx) {
      if (input.mode === "tool_error") throw new ToolError(ErrorCode.INVALID_INPUT, "bad mode", { suggestion: "Send mode ok." });
      if (input.mode === "throw") throw new Error("boom");
      if (input.mode === "unencodable") return { output: { type: "Text" as const, big: 1n as unknown as number }, promptText: "x" };
      if (input.mode === "peek") return { output: { type: "Text" as const }, promptText: `count ${ctx.session.resources.get(counter).n}` };
      if (input.mode === "timeout") {
        // Busy for longer than the call's deadline: a body that never yields cannot be cut.
        const until = Date.now() + 30;
        while (Date.now() < until);
      }
      const { n } = ctx.session.resources.get(counter);
      ctx.session.resources.set(counter, { n: n + 1 });
      return { output: { type: "Text" as const }, promptText: `count ${n + 1}` };
    },
  });
}

const ns = defineNamespace({ name: "Sync", apiVersion: 1, tools: [syncTool("plain", false), syncTool("reminded", true)] });

describe.each([false, true])("a tool body that returns its result (reminders on: %s)", (reminders) => {
  let dirs: Awaited<ReturnType<typeof tempDirs>>;
  let session: Session;
  const toolName = reminders ? "reminded" : "plain";
  const call = (mode: string, extra: { timeoutMs?: number } = {}) => session.execute({ toolName, inputJson: JSON.stringify({ mode }), ...extra });

  beforeEach(async () => {
    dirs = await tempDirs();
    session = makeSession(dirs, { registry: ToolRegistry.of([ns]), validateOutputs: false });
    const finalized = await session.finalize({ tools: [{ id: `Sync:${toolName}` }], systemRemindersEnabled: reminders });
    expect(finalized.ok).toBe(true);
  });
  afterEach(async () => {
    await session.close();
    await dirs.cleanup();
  });

  it("answers its result, its state saved, and a short deadline does not cut it", async () => {
    const first = await call("ok");
    expect(first).toMatchObject({ ok: true, promptText: reminders ? "count 1\n\n<system-reminder>\na hint\n</system-reminder>" : "count 1" });
    expect(await call("timeout", { timeoutMs: 1 })).toMatchObject({ ok: true });
    expect(await session.snapshotState()).toMatchObject({ state: { "sync.Counter": { n: 2 } } });
  });

  it("answers a thrown ToolError as it is, and any other throw or an unencodable output as INTERNAL; it never rejects", async () => {
    expect(await call("tool_error")).toMatchObject({ ok: false, error: { code: ErrorCode.INVALID_INPUT, message: "bad mode", suggestion: "Send mode ok." } });
    expect(await call("throw")).toMatchObject({ ok: false, error: { code: ErrorCode.INTERNAL } });
    expect(await call("unencodable")).toMatchObject({ ok: false, error: { code: ErrorCode.INTERNAL } });
    // Nothing was counted by the failed calls.
    expect(await session.snapshotState()).not.toHaveProperty(["state", "sync.Counter"]);
  });

  it("a call cancelled before it starts never runs the body", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await session.execute({ toolName, inputJson: JSON.stringify({ mode: "ok" }), signal: controller.signal })).toMatchObject({
      ok: false,
      error: { code: ErrorCode.CANCELLED },
    });
    expect(await session.snapshotState()).not.toHaveProperty(["state", "sync.Counter"]);
  });
});

describe("Session.executeNow", () => {
  let dirs: Awaited<ReturnType<typeof tempDirs>>;
  let session: Session;
  const request = (toolName: string, mode: string) => ({ toolName, inputJson: JSON.stringify({ mode }) });
  const open = async (reminders: boolean) => {
    session = makeSession(dirs, { registry: ToolRegistry.of([ns]), validateOutputs: false });
    const finalized = await session.finalize({ tools: [{ id: "Sync:plain" }, { id: "Sync:reminded" }], systemRemindersEnabled: reminders });
    expect(finalized.ok).toBe(true);
  };

  beforeEach(async () => {
    dirs = await tempDirs();
  });
  afterEach(async () => {
    await session.close();
    await dirs.cleanup();
  });

  it("gives the outcome itself for a call answered at once that leaves no state to write, and for a failure found at once", async () => {
    await open(false);
    const peek = session.executeNow(request("plain", "peek"));
    expect(peek).not.toBeInstanceOf(Promise);
    expect(peek).toMatchObject({ ok: true, promptText: "count 0" });
    const thrown = session.executeNow(request("plain", "tool_error"));
    expect(thrown).not.toBeInstanceOf(Promise);
    expect(thrown).toMatchObject({ ok: false, error: { code: ErrorCode.INVALID_INPUT } });
    const unparsable = session.executeNow({ toolName: "plain", inputJson: "{" });
    expect(unparsable).not.toBeInstanceOf(Promise);
    expect(unparsable).toMatchObject({ ok: false, error: { code: ErrorCode.INVALID_INPUT } });
  });

  it("gives a promise while the answer waits for a state write", async () => {
    await open(false);
    const counted = session.executeNow(request("plain", "ok"));
    expect(counted).toBeInstanceOf(Promise);
    expect(await counted).toMatchObject({ ok: true, promptText: "count 1" });
  });

  it("gives a promise while the answer waits for reminders", async () => {
    await open(true);
    const reminded = session.executeNow(request("plain", "peek"));
    expect(reminded).toBeInstanceOf(Promise);
    expect(await reminded).toMatchObject({ ok: true, promptText: "count 0\n\n<system-reminder>\na hint\n</system-reminder>" });
  });

  it("leaves execute a promise for every call, and a call answered at once is not left in flight", async () => {
    await open(false);
    const peek = session.execute(request("plain", "peek"));
    expect(peek).toBeInstanceOf(Promise);
    expect(await peek).toMatchObject({ ok: true, promptText: "count 0" });
    session.executeNow(request("plain", "peek"));
    // GetToolState waits for calls in flight: it would never answer (the test times out) if the call were still counted.
    await expect(session.snapshotState()).resolves.toBeDefined();
  });
});
