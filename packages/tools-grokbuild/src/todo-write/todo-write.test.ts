import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode, defineNamespace } from "@grok-tools/runtime";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { todoWrite } from "./todo-write.js";
import { todoNudgeStateResource } from "../reminders/todo-nudge.js";

import { isTodoNudgeDue, sameTodoState, todoStateResource } from "./state.js";
import { grokBuildBehaviour } from "../namespace.js";

const ns = defineNamespace({ name: "GrokBuild", apiVersion: 1, tools: [todoWrite], ...grokBuildBehaviour });
let dir: string;
let session: Session;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "todo-"));
  session = new Session({ registry: ToolRegistry.of([ns]), workspace: dir, stateDir: path.join(dir, ".state") });
  const outcome = await session.finalize({ tools: [{ id: "GrokBuild:todo_write" }] });
  expect(outcome.ok).toBe(true);
});

afterEach(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

async function call(input: unknown) {
  return session.execute({ toolName: "todo_write", inputJson: JSON.stringify(input) });
}

test("replace mode creates items in order and reports them", async () => {
  const r = await call({
    merge: false,
    todos: [
      { id: "1", content: "Task A" },
      { id: "2", content: "Task B", status: "in_progress" },
    ],
  });
  if (!r.ok) throw new Error(r.error.message);
  expect(r.promptText).toBe("- [pending] 1: Task A\n- [in_progress] 2: Task B\n");
  expect(JSON.parse(r.outputJson)).toEqual({
    type: "Todo",
    TodosUpdated: {
      summary_for_prompt: r.promptText,
      todos: [
        { content: "Task A", priority: "medium", status: "pending" },
        { content: "Task B", priority: "medium", status: "in_progress" },
      ],
      state: {
        todos: {
          "1": { content: "Task A", priority: "medium", status: "pending" },
          "2": { content: "Task B", priority: "medium", status: "in_progress" },
        },
      },
    },
  });
  expect((await session.snapshotState()).state).toEqual({ "grok_build.Todo": { todos: expect.any(Object) } });
});

test("replace clears previous items", async () => {
  await call({ merge: false, todos: [{ id: "old", content: "Old task", status: "completed" }] });
  const r = await call({ merge: false, todos: [{ id: "new", content: "New task" }] });
  expect(r.ok && r.promptText).toBe("- [pending] new: New task\n");
});

test("merge keeps content when only the status is sent, and appends new ids", async () => {
  await call({
    merge: false,
    todos: [
      { id: "a", content: "Build", status: "in_progress" },
      { id: "b", content: "Test" },
    ],
  });
  const r = await call({
    merge: "true",
    todos: [
      { id: "a", status: "completed" },
      { id: "c", content: "Deploy" },
    ],
  });
  expect(r.ok && r.promptText).toBe("- [completed] a: Build\n- [pending] b: Test\n- [pending] c: Deploy\n");
});

test("merge is the default, and a new id without content falls back to the id", async () => {
  const r = await call({ todos: [{ id: "explore", status: "completed" }] });
  expect(r.ok && r.promptText).toBe("- [completed] explore: explore\n");
});

test("merge:false with only status updates of existing ids is upgraded to a merge", async () => {
  await call({
    merge: false,
    todos: [
      { id: "a", content: "A" },
      { id: "b", content: "B" },
    ],
  });
  const r = await call({ merge: false, todos: [{ id: "b", status: "completed" }] });
  expect(r.ok && r.promptText).toBe("- [pending] a: A\n- [completed] b: B\n");
});

test("merge:false with content replaces even when ids exist", async () => {
  await call({
    merge: false,
    todos: [
      { id: "a", content: "A" },
      { id: "b", content: "B" },
    ],
  });
  const r = await call({ merge: false, todos: [{ id: "b", content: "B2" }] });
  expect(r.ok && r.promptText).toBe("- [pending] b: B2\n");
});

test("an empty list is a success", async () => {
  const r = await call({ merge: false, todos: [] });
  expect(r.ok && r.promptText).toBe("No tasks currently tracked.");
});

test("duplicate ids are INVALID_INPUT with the reference's text and leave the state alone", async () => {
  await call({ todos: [{ id: "keep", content: "Keep" }] });
  const r = await call({
    todos: [
      { id: "x", content: "1" },
      { id: "x", content: "2" },
    ],
  });
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect(r.error.code).toBe(ErrorCode.INVALID_INPUT);
  expect(r.error.message).toBe('Duplicate todo ID in request: "x". Each todo item must have a unique ID.');
  expect(Object.keys(session.resources.get(todoStateResource).todos)).toEqual(["keep"]);
});

test.each([3, 12])("in a list of %i items the first repeated id is named (short lists are checked pairwise, long ones with a set)", async (n) => {
  const todos = Array.from({ length: n }, (_, i) => ({ id: `t${i}`, content: `${i}` }));
  todos.push({ id: "t1", content: "again" }, { id: "t0", content: "again" });
  const r = await call({ merge: false, todos });
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect(r.error.code).toBe(ErrorCode.INVALID_INPUT);
  expect(r.error.message).toBe('Duplicate todo ID in request: "t1". Each todo item must have a unique ID.');
});

test("an unknown status is rejected", async () => {
  const r = await call({ todos: [{ id: "x", status: "done" }] });
  expect(r.ok).toBe(false);
});

test("isTodoNudgeDue reads the runtime's nudge counters", () => {
  const resources = session.resources;
  expect(isTodoNudgeDue(resources)).toBe(false);
  resources.set(todoNudgeStateResource, { calls_since_todo_write: 3, calls_since_nudge: null });
  expect(isTodoNudgeDue(resources)).toBe(true);
  resources.set(todoNudgeStateResource, { calls_since_todo_write: 9, calls_since_nudge: 4 });
  expect(isTodoNudgeDue(resources)).toBe(false);
  resources.set(todoNudgeStateResource, { calls_since_todo_write: 9, calls_since_nudge: 5 });
  expect(isTodoNudgeDue(resources)).toBe(true);
  resources.set(todoNudgeStateResource, { calls_since_todo_write: 2, calls_since_nudge: 50 });
  expect(isTodoNudgeDue(resources)).toBe(false);
});

test("stores ids that are Object.prototype names as ordinary todos, across merges and a reload (issue 23.6)", async () => {
  const ids = ["__proto__", "constructor", "toString", "hasOwnProperty"];
  const first = await call({ merge: false, todos: ids.map((id) => ({ id, content: `task ${id}` })) });
  if (!first.ok) throw new Error(first.error.message);
  expect(first.promptText).toBe(ids.map((id) => `- [pending] ${id}: task ${id}\n`).join(""));
  // A status-only update of a stored id merges; of an id never stored (`valueOf`) it creates a todo, never reads the prototype.
  const second = await call({ todos: [{ id: "__proto__", status: "completed" }, { id: "constructor", status: "in_progress" }, { id: "valueOf" }] });
  if (!second.ok) throw new Error(second.error.message);
  expect(second.promptText).toBe(
    "- [completed] __proto__: task __proto__\n- [in_progress] constructor: task constructor\n- [pending] toString: task toString\n- [pending] hasOwnProperty: task hasOwnProperty\n- [pending] valueOf: valueOf\n",
  );
  const output = JSON.parse(second.outputJson) as { TodosUpdated: { state: { todos: Record<string, unknown> } } };
  expect(Object.keys(output.TodosUpdated.state.todos)).toEqual([...ids, "valueOf"]);
  const state = (await session.snapshotState()) as { state: Record<string, { todos: Record<string, { status: string }> }> };
  expect(Object.keys(state.state["grok_build.Todo"]!.todos)).toEqual([...ids, "valueOf"]);
  // A new session on the same state folder loads them back.
  await session.close();
  session = new Session({ registry: ToolRegistry.of([ns]), workspace: dir, stateDir: path.join(dir, ".state") });
  expect((await session.finalize({ tools: [{ id: "GrokBuild:todo_write" }] })).ok).toBe(true);
  const loaded = session.resources.get(todoStateResource);
  expect(Object.keys(loaded.todos)).toEqual([...ids, "valueOf"]);
  expect(Object.getPrototypeOf(loaded.todos)).toBeNull();
  expect(loaded.todos["__proto__"]).toEqual({ content: "task __proto__", priority: "medium", status: "completed" });
});

test("an update that changes nothing is no state change (no state write); a real change is one", async () => {
  const todos = [
    { id: "1", content: "Task A" },
    { id: "2", content: "Task B", status: "in_progress" },
  ];
  expect((await call({ merge: false, todos })).ok).toBe(true);
  let changes = 0;
  session.resources.onChange(() => changes++);
  expect((await call({ merge: false, todos })).ok).toBe(true);
  expect((await call({ merge: true, todos: [{ id: "2", status: "in_progress" }] })).ok).toBe(true);
  expect(changes).toBe(0);
  const changed = await call({ merge: true, todos: [{ id: "1", status: "completed" }] });
  if (!changed.ok) throw new Error(changed.error.message);
  expect(changed.promptText).toBe("- [completed] 1: Task A\n- [in_progress] 2: Task B\n");
  expect(changes).toBe(1);
  const state = (await session.snapshotState()).state as Record<string, { todos: Record<string, { status: string }> }> | undefined;
  expect(state?.["grok_build.Todo"]?.todos["1"]?.status).toBe("completed");
});

describe("sameTodoState: says what comparing the two states' JSON says", () => {
  const item = (content: string, extra: Record<string, unknown> = {}) => ({ content, priority: "medium" as const, status: "pending" as const, ...extra });
  const state = (...entries: Array<[string, ReturnType<typeof item>]>) => {
    const todos = Object.create(null) as Record<string, ReturnType<typeof item>>;
    for (const [id, value] of entries) todos[id] = value;
    return { todos };
  };
  const pairs: Array<[string, ReturnType<typeof state>, ReturnType<typeof state>]> = [
    ["equal lists", state(["a", item("x")], ["b", item("y")]), state(["a", item("x")], ["b", item("y")])],
    ["another order", state(["a", item("x")], ["b", item("y")]), state(["b", item("y")], ["a", item("x")])],
    ["another content", state(["a", item("x")]), state(["a", item("z")])],
    ["another status", state(["a", item("x")]), state(["a", item("x", { status: "completed" })])],
    ["another priority", state(["a", item("x")]), state(["a", item("x", { priority: "high" })])],
    ["one more todo", state(["a", item("x")]), state(["a", item("x")], ["b", item("y")])],
    ["another id", state(["a", item("x")]), state(["b", item("x")])],
    ["equal meta", state(["a", item("x", { meta: { n: [1, 2] } })]), state(["a", item("x", { meta: { n: [1, 2] } })])],
    ["another meta", state(["a", item("x", { meta: { n: 1 } })]), state(["a", item("x", { meta: { n: 2 } })])],
    ["meta on one side", state(["a", item("x", { meta: "m" })]), state(["a", item("x")])],
    ["integer-like ids", state(["10", item("x")], ["2", item("y")]), state(["2", item("y")], ["10", item("x")])],
    ["empty lists", state(), state()],
  ];
  it.each(pairs)("%s", (_name, a, b) => {
    expect(sameTodoState(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
    expect(sameTodoState(b, a)).toBe(JSON.stringify(b) === JSON.stringify(a));
  });
});
