/**
 * System reminders (spec §6): wrapping and appending, the switch (finalize flag, concise tools,
 * SetSystemReminders), the TodoNudge cadence and its persisted counters, tool-declared reminders.
 */
import { ToolRegistry, Type, defineNamespace, defineReminder, defineTool, formatWithReminders, wrapReminder, type Session } from "../src/index.js";
import { concise, grokBuild, hashline, makeSession, tempDirs } from "./fixtures.js";

const NUDGE =
  "<system-reminder>\nThe todo_write tool hasn't been used recently. If you're working on a multi-step task, use todo_write to record and update your progress, and clean up the list if it no longer matches what you are doing. Ignore this reminder if it does not apply to the current work.\n</system-reminder>";

describe("formatting", () => {
  it("wraps each reminder and appends them after a blank line", () => {
    expect(wrapReminder("Some reminder text")).toBe("<system-reminder>\nSome reminder text\n</system-reminder>");
    expect(formatWithReminders("out", ["a", "b"])).toBe("out\n\n<system-reminder>\na\n</system-reminder>\n\n<system-reminder>\nb\n</system-reminder>");
    expect(formatWithReminders("", ["a"], "note")).toBe("<note>\na\n</note>");
    expect(formatWithReminders("out", [])).toBe("out");
  });
});

describe("in a session", () => {
  let dirs: Awaited<ReturnType<typeof tempDirs>>;
  let session: Session;
  beforeEach(async () => {
    dirs = await tempDirs();
    session = makeSession(dirs);
  });
  afterEach(async () => {
    await session.close();
    await dirs.cleanup();
  });

  const grep = (s: Session) => s.execute({ toolName: "grep", inputJson: '{"pattern":"x"}' });

  it("nudges after 3 calls without the todo tool, then every 5 calls", async () => {
    await session.finalize({ tools: [{ id: "GrokBuild:grep" }, { id: "GrokBuild:todo_write" }], systemRemindersEnabled: true });
    const texts: string[] = [];
    for (let i = 0; i < 9; i++) {
      const r = await grep(session);
      texts.push(r.ok ? r.promptText : "error");
    }
    expect(texts.map((t) => t.includes("<system-reminder>"))).toEqual([false, false, true, false, false, false, false, true, false]);
    expect(texts[2]).toBe(`grep x\n\n${NUDGE}`);
    const todo = await session.execute({ toolName: "todo_write", inputJson: '{"todos":[]}' });
    expect(todo.ok && todo.promptText).toBe("todos: 0");
    expect(JSON.parse(todo.ok ? todo.outputJson : "{}")).toEqual({ type: "Text", text: "" });
    expect((await session.snapshotState()).state).toEqual({ "grok_build.TodoNudge": { calls_since_todo_write: 0, calls_since_nudge: 2 } });
    const after = [];
    for (let i = 0; i < 3; i++) after.push(await grep(session));
    expect(after.map((r) => r.ok && r.promptText.includes("<system-reminder>"))).toEqual([false, false, true]);
  });

  it("stays silent when reminders are off, and SetSystemReminders switches them", async () => {
    await session.finalize({ tools: [{ id: "GrokBuild:grep" }, { id: "GrokBuild:todo_write" }] });
    expect(session.getSystemReminders()).toBe(false);
    for (let i = 0; i < 5; i++) {
      const quiet = await grep(session);
      expect(quiet.ok && quiet.promptText).toBe("grep x");
    }
    expect(session.setSystemReminders(true)).toEqual({ success: true, message: "System reminders enabled", enabled: true });
    const loud = [await grep(session), await grep(session), await grep(session)];
    expect(loud.map((r) => r.ok && r.promptText.endsWith(NUDGE))).toEqual([false, false, true]);
    session.setSystemReminders(false);
    for (let i = 0; i < 6; i++) {
      const quiet = await grep(session);
      expect(quiet.ok && quiet.promptText).toBe("grep x");
    }
  });

  it("is inactive without a plan tool", async () => {
    await session.finalize({ tools: [{ id: "GrokBuild:grep" }], systemRemindersEnabled: true });
    for (let i = 0; i < 6; i++) {
      const r = await grep(session);
      expect(r.ok && r.promptText).toBe("grep x");
    }
    expect(await session.snapshotState()).toEqual({});
  });

  it("is forced off by a GrokBuildConcise tool", async () => {
    await session.finalize({ tools: [{ id: "GrokBuildConcise:read_file" }, { id: "GrokBuild:todo_write" }], systemRemindersEnabled: true });
    expect(session.getSystemReminders()).toBe(false);
    expect(session.setSystemReminders(true)).toEqual({ success: false, message: "System reminders stay disabled: a GrokBuildConcise tool is configured", enabled: false });
  });

  it("runs tool-declared reminders once, renders names, and skips failing ones", async () => {
    let runs = 0;
    const hint = defineReminder({ id: "hint", collect: (ctx) => (runs++, [ctx.render("Prefer ${{ tools.by_kind.search }} for ${{ tools.by_kind.missing }}searching."), ""]) });
    const broken = defineReminder({ id: "broken", collect: () => { throw new Error("boom"); } });
    const t = (id: string) =>
      defineTool({
        id,
        kind: "other",
        description: "x",
        input: Type.Object({}),
        output: Type.Object({ type: Type.Literal("Text") }),
        reminders: [hint, broken],
        async execute() {
          return { output: { type: "Text" as const }, promptText: "" };
        },
      });
    const extra = defineNamespace({ name: "Extra", apiVersion: 1, tools: [t("one"), t("two")] });
    const s = makeSession(dirs, { registry: ToolRegistry.of([grokBuild, hashline, concise, extra]) });
    await s.finalize({ tools: [{ id: "Extra:one" }, { id: "Extra:two" }, { id: "GrokBuild:grep", nameOverride: "search" }], systemRemindersEnabled: true });
    const r = await s.execute({ toolName: "one", inputJson: "{}" });
    expect(r.ok && r.promptText).toBe("<system-reminder>\nPrefer search for searching.\n</system-reminder>");
    expect(runs).toBe(1);
    const failed = await s.execute({ toolName: "search", inputJson: "{}" });
    expect(failed.ok).toBe(false);
    expect(runs).toBe(1);
    await s.close();
  });
});
