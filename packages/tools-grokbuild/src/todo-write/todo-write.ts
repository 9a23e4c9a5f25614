/** `GrokBuild:todo_write`: the session's structured task list (spec §4.6). */
import { defineTool } from "@grok-tools/runtime";
import { lenientBool, normalizeKey } from "@grok-tools/runtime/helpers";
import { loadDescription } from "../shared/description.js";
import { applyTodoUpdates, assertUniqueIds, effectiveMerge } from "./execute.js";
import { summarizeTodoState } from "./format.js";
import { TodoWriteInput, TodoWriteOutput, type TodoItem } from "./schema.js";
import { copyTodoMap, sameTodoState, todoStateResource } from "./state.js";

/** The `todo_write` tool definition. */
export const todoWrite = defineTool({
  id: "todo_write",
  kind: "plan",
  description: loadDescription(import.meta.url),
  shortDescription: "Create and update the session's task list",
  input: TodoWriteInput,
  output: TodoWriteOutput,
  outputFields: {
    TodosUpdated: { description: "The summary, the todos in order, and the full state snapshot" },
  },
  resources: [todoStateResource],
  // In place (the object is the call's own): no copy of the input per call (#18).
  normalizeInput: (raw) => {
    normalizeKey(raw, "merge", lenientBool);
    return raw;
  },
  // Not async: nothing to wait for, so the call is answered in the same turn (issue #18).
  execute(input, ctx) {
    assertUniqueIds(input.todos);
    const resources = ctx.session.resources;
    const current = resources.get(todoStateResource);
    const merge = effectiveMerge(input.merge ?? true, current, input.todos);
    const next = applyTodoUpdates(current, input.todos, merge);
    // An update that changes nothing (same items, same order) is no state change: no state write.
    if (!sameTodoState(next, current)) resources.set(todoStateResource, next);
    const summary = summarizeTodoState(next);
    // One copy for the output's list and snapshot (they hold the same items): the state keeps `next`.
    const list: TodoItem[] = [];
    const shown = copyTodoMap(next.todos, list);
    return {
      output: {
        type: "Todo" as const,
        TodosUpdated: { summary_for_prompt: summary, todos: list, state: { todos: shown } },
      },
      promptText: summary,
    };
  },
});
