/**
 * Session state of the todo tool: the todo list (`grok_build.Todo`, spec §5.1) and the todo-nudge
 * counters (`grok_build.TodoNudge`, spec §6.3). The reminder text itself belongs to the reminders
 * mechanism; this module only counts and says when a nudge is due.
 */
import { defineResource, isPlainObject, type ResourceStore } from "@grok-tools/runtime";
import { TODO_STATUSES, type TodoItem, type TodoState } from "./schema.js";

/** The todo list of a session, shared by every plan-kind todo tool. */
export const todoStateResource = defineResource<TodoState>({
  id: "grok_build.Todo",
  category: "state",
  initial: () => ({ todos: {} }),
  decode: decodeTodoState,
});

function decodeTodoState(json: unknown): TodoState | undefined {
  if (!isPlainObject(json)) return undefined;
  const todos = json.todos ?? {};
  if (!isPlainObject(todos)) return undefined;
  const out: TodoState = { todos: {} };
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

/** Tool calls needed since the last todo write before a nudge (reference agent config). */
export const TODO_NUDGE_CALLS_SINCE_TODO_WRITE = 3;
/** Tool calls needed between two nudges (reference agent config). */
export const TODO_NUDGE_CALLS_BETWEEN_NUDGES = 5;

/** Counters of the todo nudge; `calls_since_nudge` is null until the first nudge. */
export interface TodoNudgeState {
  calls_since_todo_write: number;
  calls_since_nudge: number | null;
}

/** The todo-nudge counters of a session (`grok_build.TodoNudge`). */
export const todoNudgeResource = defineResource<TodoNudgeState>({
  id: "grok_build.TodoNudge",
  category: "state",
  initial: () => ({ calls_since_todo_write: 0, calls_since_nudge: null }),
  decode: (json) => {
    if (!isPlainObject(json)) return undefined;
    const sinceTodo = json.calls_since_todo_write;
    const sinceNudge = json.calls_since_nudge ?? null;
    if (!isCount(sinceTodo) || (sinceNudge !== null && !isCount(sinceNudge))) return undefined;
    return { calls_since_todo_write: sinceTodo, calls_since_nudge: sinceNudge };
  },
});

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/**
 * Counts one finished tool call. A plan-kind call (the todo tool) resets the since-write counter;
 * any other call advances both counters.
 */
export function recordTodoNudgeCall(resources: ResourceStore, isTodoCall: boolean): TodoNudgeState {
  return resources.update(todoNudgeResource, (current) => ({
    calls_since_todo_write: isTodoCall ? 0 : current.calls_since_todo_write + 1,
    calls_since_nudge: current.calls_since_nudge === null ? null : current.calls_since_nudge + 1,
  }));
}

/**
 * Whether a todo nudge is due: at least {@link TODO_NUDGE_CALLS_SINCE_TODO_WRITE} calls since the
 * last todo write, and never nudged or at least {@link TODO_NUDGE_CALLS_BETWEEN_NUDGES} calls since
 * the last nudge. The caller checks that a plan tool is enabled and reminders are on.
 */
export function isTodoNudgeDue(resources: ResourceStore): boolean {
  const state = resources.get(todoNudgeResource);
  if (state.calls_since_todo_write < TODO_NUDGE_CALLS_SINCE_TODO_WRITE) return false;
  return state.calls_since_nudge === null || state.calls_since_nudge >= TODO_NUDGE_CALLS_BETWEEN_NUDGES;
}

/** Records that a nudge was shown. */
export function markTodoNudged(resources: ResourceStore): void {
  resources.update(todoNudgeResource, (current) => ({ ...current, calls_since_nudge: 0 }));
}
