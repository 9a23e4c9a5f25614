/**
 * The session's todo list as OpenCode:todowrite sees it: the shared `grok_build.Todo` state (spec
 * §5.1), keyed by id. Resources are keyed by id, so this key and any other namespace's key with the
 * same id and shape name one list: a toolset mixing todo tools of several namespaces shares it.
 */
import { Type, defineResource, type Static } from "@grok-tools/runtime";
import { isPlainObject } from "@grok-tools/runtime/helpers";

/** The statuses a todo can have. */
export const TODO_STATUSES = ["pending", "in_progress", "completed", "cancelled"] as const;
/** The priorities a todo can have. */
export const TODO_PRIORITIES = ["high", "medium", "low"] as const;

/** One stored todo. */
export const TodoItem = Type.Object({
  content: Type.String(),
  priority: Type.Union([Type.Literal("high"), Type.Literal("medium"), Type.Literal("low")]),
  status: Type.Union([Type.Literal("pending"), Type.Literal("in_progress"), Type.Literal("completed"), Type.Literal("cancelled")]),
  meta: Type.Optional(Type.Unknown()),
});
export type TodoItem = Static<typeof TodoItem>;

/** The `grok_build.Todo` state: todos by id, in insertion order. */
export const TodoState = Type.Object({ todos: Type.Record(Type.String(), TodoItem) });
export type TodoState = Static<typeof TodoState>;

/** An empty, prototype-free todo map (ids are the model's strings; `__proto__` is a key like any). */
export function emptyTodoMap(): Record<string, TodoItem> {
  return Object.create(null) as Record<string, TodoItem>;
}

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
    if (typeof priority !== "string" || !(TODO_PRIORITIES as readonly string[]).includes(priority)) return undefined;
    const item: TodoItem = { content: raw.content, priority: priority as TodoItem["priority"], status: status as TodoItem["status"] };
    if (raw.meta !== undefined && raw.meta !== null) item.meta = raw.meta;
    out.todos[id] = item;
  }
  return out;
}

/** The todo list resource (`state` / `grok_build.Todo`). */
export const todoStateResource = defineResource<TodoState>({
  id: "grok_build.Todo",
  category: "state",
  initial: () => ({ todos: emptyTodoMap() }),
  decode: decodeTodoState,
});
