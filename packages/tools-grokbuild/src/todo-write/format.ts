/** Prompt text of `GrokBuild:todo_write`: one `- [status] id: content` line per todo. */
import type { TodoState } from "./schema.js";

/** The reference's summary of the todo list (`summarize_todo_state`). */
export function summarizeTodoState(state: TodoState): string {
  let summary = "";
  // for...in over a prototype-free map: its own keys in insertion order, without an entries array.
  for (const id in state.todos) {
    const item = state.todos[id]!;
    summary += `- [${item.status}] ${id}: ${item.content}\n`;
  }
  return summary === "" ? "No tasks currently tracked." : summary;
}
