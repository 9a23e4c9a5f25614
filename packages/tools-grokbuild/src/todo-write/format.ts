/** Prompt text of `GrokBuild:todo_write`: one `- [status] id: content` line per todo. */
import type { TodoState } from "./schema.js";

/** The reference's summary of the todo list (`summarize_todo_state`). */
export function summarizeTodoState(state: TodoState): string {
  const entries = Object.entries(state.todos);
  if (entries.length === 0) return "No tasks currently tracked.";
  return entries.map(([id, item]) => `- [${item.status}] ${id}: ${item.content}\n`).join("");
}
