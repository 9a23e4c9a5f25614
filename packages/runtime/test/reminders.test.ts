/**
 * System reminders (spec §6): wrapping and appending, the switch kept off by a namespace that
 * disables reminders, tool-declared reminders. (GrokBuild's TodoNudge is tested in tools-grokbuild.)
 */
import { ToolRegistry, type Session } from "../src/host.js";
import { Type, defineNamespace, defineReminder, defineTool } from "../src/index.js";
import { formatWithReminders, wrapReminder } from "../src/helpers.js";
import { concise, grokBuild, hashline, makeSession, tempDirs } from "./fixtures.js";

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

  it("is forced off by a GrokBuildConcise tool", async () => {
    await session.finalize({ tools: [{ id: "GrokBuildConcise:read_file" }, { id: "GrokBuild:todo_write" }], systemRemindersEnabled: true });
    expect(session.configuration.getSystemReminders()).toBe(false);
    expect(session.configuration.setSystemReminders(true)).toEqual({
      success: false,
      message: "System reminders stay disabled: a GrokBuildConcise tool is configured",
      enabled: false,
    });
  });

  it("runs tool-declared reminders once, renders names, and skips failing ones", async () => {
    let runs = 0;
    const hint = defineReminder({
      id: "hint",
      collect: (ctx) => (runs++, [ctx.render("Prefer ${{ tools.by_kind.search }} for ${{ tools.by_kind.missing }}searching."), ""]),
    });
    const broken = defineReminder({
      id: "broken",
      collect: () => {
        throw new Error("boom");
      },
    });
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
