/**
 * A tool body may return its result instead of a promise (issue #18: the call is then answered
 * without the promise, cancel listener and deadline timer a waiting body needs). Whatever it does,
 * the caller gets the same answers as from an async body: results, ToolErrors, INTERNAL for a throw
 * or an output that cannot be encoded, with or without reminders, and GetToolState sees its state.
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
