/**
 * The todo list update of `GrokBuild:todo_write` (spec §4.6): duplicate check, merge or replace,
 * and the auto-merge upgrade for partial updates. Pure functions over the state value; todo maps
 * have no prototype, so any id string is stored as given.
 */
import { ErrorCode, ToolError } from "@grok-tools/runtime";
import type { TodoItem, TodoState, TodoUpdate } from "./schema.js";
import { copyTodoMap, emptyTodoMap } from "./state.js";

/** Throws INVALID_INPUT with the reference's message when an id appears twice in one request. */
export function assertUniqueIds(updates: readonly TodoUpdate[]): void {
  // A list of a few items is checked pair by pair: no set to build for the usual one-item update (#18).
  if (updates.length <= 8) {
    for (let i = 1; i < updates.length; i++) {
      for (let j = 0; j < i; j++) if (updates[j]!.id === updates[i]!.id) throw duplicateId(updates[i]!.id);
    }
    return;
  }
  const seen = new Set<string>();
  for (const update of updates) {
    if (seen.has(update.id)) throw duplicateId(update.id);
    seen.add(update.id);
  }
}

function duplicateId(id: string): ToolError {
  const message = `Duplicate todo ID in request: "${id}". Each todo item must have a unique ID.`;
  return new ToolError(ErrorCode.INVALID_INPUT, message, {
    suggestion: "Send each todo id at most once per call.",
    details: { type: "Todo", DuplicateId: message },
  });
}

function hasNoContent(update: TodoUpdate): boolean {
  return update.content === undefined || update.content === null || update.content === "";
}

function newItem(update: TodoUpdate): TodoItem {
  return {
    content: hasNoContent(update) ? update.id : (update.content as string),
    priority: "medium",
    status: update.status ?? "pending",
  };
}

/**
 * Whether the call merges: `merge` is true, or the model forgot it but clearly sent a partial
 * update (the list is non-empty and every update targets an existing id without content).
 */
export function effectiveMerge(merge: boolean, state: TodoState, updates: readonly TodoUpdate[]): boolean {
  if (merge) return true;
  const existing = Object.keys(state.todos).length > 0;
  return existing && updates.length > 0 && updates.every((u) => hasNoContent(u) && Object.hasOwn(state.todos, u.id));
}

/** The new state after applying `updates` (the input state is not modified). */
export function applyTodoUpdates(state: TodoState, updates: readonly TodoUpdate[], merge: boolean): TodoState {
  const todos = merge ? copyTodoMap(state.todos) : emptyTodoMap();
  for (const update of updates) {
    const current = merge && Object.hasOwn(todos, update.id) ? todos[update.id] : undefined;
    if (current) {
      if (!hasNoContent(update)) current.content = update.content as string;
      if (update.status !== undefined && update.status !== null) current.status = update.status;
      continue;
    }
    // A replace call with a repeated id cannot happen (ids are unique), so insertion keeps request order.
    todos[update.id] = newItem(update);
  }
  return { todos };
}
