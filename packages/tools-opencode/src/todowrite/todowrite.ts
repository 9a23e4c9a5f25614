/**
 * `OpenCode:todowrite` (spec §4.14): always replaces the session's todo list; ids are 1..n, an
 * unknown status is `pending`, an unknown priority `medium`.
 */
import { defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { TodoWriteInput, TodoWriteOutput } from "./schema.js";
import { TODO_PRIORITIES, TODO_STATUSES, emptyTodoMap, todoStateResource, type TodoItem } from "./state.js";

const statusOf = (s: string): TodoItem["status"] => ((TODO_STATUSES as readonly string[]).includes(s) ? (s as TodoItem["status"]) : "pending");
const priorityOf = (p: string): TodoItem["priority"] => ((TODO_PRIORITIES as readonly string[]).includes(p) ? (p as TodoItem["priority"]) : "medium");

/** `- [status] n: content` per todo, or the empty-list text. */
export function summarizeTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return "No tasks currently tracked.";
  return todos.map((t, i) => `- [${t.status}] ${i + 1}: ${t.content}\n`).join("");
}

/** The `todowrite` tool definition. */
export const todowrite = defineTool({
  id: "todowrite",
  kind: "plan",
  description: loadDescription(import.meta.url),
  shortDescription: "Replace the session's task list",
  input: TodoWriteInput,
  output: TodoWriteOutput,
  outputFields: { TodosUpdated: { description: "The summary, the todos in order, and the full state snapshot" } },
  resources: [todoStateResource],
  async execute(input, ctx) {
    const todos = emptyTodoMap();
    input.todos.forEach((item, i) => {
      todos[String(i + 1)] = { content: item.content, priority: priorityOf(item.priority), status: statusOf(item.status) };
    });
    ctx.session.resources.set(todoStateResource, { todos });
    const items = Object.values(todos).map((t) => ({ ...t }));
    const summary = summarizeTodos(items);
    const snapshot = emptyTodoMap();
    for (const [id, t] of Object.entries(todos)) snapshot[id] = { ...t };
    return { output: { type: "Todo" as const, TodosUpdated: { summary_for_prompt: summary, todos: items, state: { todos: snapshot } } }, promptText: summary };
  },
});
