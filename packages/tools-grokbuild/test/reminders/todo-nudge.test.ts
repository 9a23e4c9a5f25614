/**
 * TodoNudge (spec §6.3): the cadence, its persisted counters, the reminder switch, and that it is
 * inactive without a plan tool. Small stand-ins for grep and todo_write keep the texts short.
 */
import { Type, defineNamespace, defineTool } from "@grok-tools/runtime";
import { ToolRegistry, type Session } from "@grok-tools/runtime/host";
import { todoNudgeReminder } from "../../src/reminders/todo-nudge.js";
import { makeSession, tempDirs } from "./helpers.js";

const NUDGE =
  "<system-reminder>\nThe todo_write tool hasn't been used recently. If you're working on a multi-step task, use todo_write to record and update your progress, and clean up the list if it no longer matches what you are doing. Ignore this reminder if it does not apply to the current work.\n</system-reminder>";

const TextOutput = Type.Object({ type: Type.Literal("Text"), text: Type.String() });
const grepTool = defineTool({
  id: "grep",
  kind: "search",
  description: "Search.",
  input: Type.Object({ pattern: Type.String() }),
  output: TextOutput,
  async execute(input) {
    return { output: { type: "Text" as const, text: input.pattern }, promptText: `grep ${input.pattern}` };
  },
});
const todoTool = defineTool({
  id: "todo_write",
  kind: "plan",
  description: "Write todos.",
  input: Type.Object({ todos: Type.Array(Type.String()) }),
  output: TextOutput,
  async execute(input) {
    return { output: { type: "Text" as const, text: input.todos.join(",") }, promptText: `todos: ${input.todos.length}` };
  },
});
const grokBuild = defineNamespace({ name: "GrokBuild", apiVersion: 1, tools: [grepTool, todoTool], reminders: [todoNudgeReminder] });

describe("TodoNudge", () => {
  let dirs: Awaited<ReturnType<typeof tempDirs>>;
  let session: Session;
  beforeEach(async () => {
    dirs = await tempDirs();
    session = makeSession(dirs, { registry: ToolRegistry.of([grokBuild]) });
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
    expect(session.configuration.getSystemReminders()).toBe(false);
    for (let i = 0; i < 5; i++) {
      const quiet = await grep(session);
      expect(quiet.ok && quiet.promptText).toBe("grep x");
    }
    expect(session.configuration.setSystemReminders(true)).toEqual({ success: true, message: "System reminders enabled", enabled: true });
    const loud = [await grep(session), await grep(session), await grep(session)];
    expect(loud.map((r) => r.ok && r.promptText.endsWith(NUDGE))).toEqual([false, false, true]);
    session.configuration.setSystemReminders(false);
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
});
