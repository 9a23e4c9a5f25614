/**
 * Session state of the todo tool: the todo list (`grok_build.Todo`, spec §5.1), and whether a todo
 * nudge is due. The nudge counters (`grok_build.TodoNudge`, spec §6.3) and the reminder itself
 * belong to the runtime's reminders; this module only reads them.
 */
import { defineResource } from "@grok-tools/runtime";
import { isPlainObject } from "@grok-tools/runtime/helpers";
import { type ResourceStore } from "@grok-tools/runtime/helpers";
import { TODO_NUDGE_CALLS_BETWEEN_NUDGES, TODO_NUDGE_CALLS_SINCE_TODO_WRITE, todoNudgeStateResource } from "../reminders/todo-nudge.js";
import { TODO_STATUSES, type TodoItem, type TodoState } from "./schema.js";

/**
 * An empty todo map. Todo ids are the model's own strings, so the map has no prototype: an id such
 * as `__proto__`, `constructor` or `toString` is an ordinary key (a plain object would drop the
 * first on assignment and report the others as existing todos).
 */
export function emptyTodoMap(): Record<string, TodoItem> {
  return Object.create(null) as Record<string, TodoItem>;
}

/**
 * A prototype-free copy of a todo map (items cloned), in the same key order. With `list`, each copied
 * item is also pushed onto it, in that order: the output's list and snapshot share their items, and
 * Object.values of a prototype-free map (a dictionary in V8) was ~440 B and ~0.2 µs per todo_write (#18).
 */
export function copyTodoMap(todos: Readonly<Record<string, TodoItem>>, list?: TodoItem[]): Record<string, TodoItem> {
  const out = emptyTodoMap();
  // Items are JSON: strings, plus an optional `meta` of any JSON. Only an object `meta` needs the deep
  // copy; a spread copies the rest in the same key order (issue #18: structuredClone of every item, three
  // times per todo_write, was 3% of the server's time for a one-item list).
  for (const id in todos) {
    const item = todos[id]!;
    const copy = typeof item.meta === "object" && item.meta !== null ? structuredClone(item) : { ...item };
    out[id] = copy;
    list?.push(copy);
  }
  return out;
}

/**
 * Whether two todo states serialize the same: the same ids in the same order, each with the same
 * fields (JSON.stringify of both states said the same, at a few times the cost per todo_write, #18).
 */
export function sameTodoState(a: TodoState, b: TodoState): boolean {
  const ids = Object.keys(a.todos);
  const otherIds = Object.keys(b.todos);
  if (ids.length !== otherIds.length) return false;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (id !== otherIds[i]) return false;
    const x = a.todos[id]!;
    const y = b.todos[id]!;
    if (x.content !== y.content || x.priority !== y.priority || x.status !== y.status) return false;
    if ((x.meta !== undefined || y.meta !== undefined) && JSON.stringify(x.meta) !== JSON.stringify(y.meta)) return false;
  }
  return true;
}

/** The todo list of a session, shared by every plan-kind todo tool. */
export const todoStateResource = defineResource<TodoState>({
  id: "grok_build.Todo",
  category: "state",
  initial: () => ({ todos: emptyTodoMap() }),
  decode: decodeTodoState,
});

function decodeTodoState(json: unknown): TodoState | undefined {
  if (!isPlainObject(json)) return undefined;
  const todos = json.todos ?? {};
  if (!isPlainObject(todos)) return undefined;
  const out: TodoState = { todos: emptyTodoMap() };
  for (const [id, raw] of Object.entries(todos)) {
    if (!isPlainObject(raw) || typeof raw.content !== "string") return undefined;
    const status = raw.status;
    if (typeof status !== "string" || !(TODO_STATUSES as readonly string[]).includes(status)) return undefined;
    const priority = raw.priority ?? "medium";
    if (priority !== "high" && priority !== "medium" && priority !== "low") return undefined;
    const item: TodoItem = { content: raw.content, priority, status: status as TodoItem["status"] };
    if (raw.meta !== undefined && raw.meta !== null) item.meta = raw.meta;
    out.todos[id] = item;
  }
  return out;
}

/**
 * Whether a todo nudge is due by the session's counters (`grok_build.TodoNudge`, kept by the
 * runtime's TodoNudge reminder): at least {@link TODO_NUDGE_CALLS_SINCE_TODO_WRITE} calls since the
 * last plan-kind call, and never nudged or at least {@link TODO_NUDGE_CALLS_BETWEEN_NUDGES} calls
 * since the last nudge.
 */
export function isTodoNudgeDue(resources: ResourceStore): boolean {
  const state = resources.get(todoNudgeStateResource);
  if (state.calls_since_todo_write < TODO_NUDGE_CALLS_SINCE_TODO_WRITE) return false;
  return state.calls_since_nudge === null || state.calls_since_nudge >= TODO_NUDGE_CALLS_BETWEEN_NUDGES;
}
