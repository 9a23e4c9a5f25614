/** Input and output schemas of `OpenCode:todowrite` (spec §4.14). */
import { Type, type Static } from "@grok-tools/runtime";
import { TodoItem, TodoState } from "./state.js";

/** One todo of a request: every field a required string (unknown values fall back, see execute). */
const OpenCodeTodoItem = Type.Object({
  content: Type.String({ description: "Brief description of the task" }),
  status: Type.String({ description: "The current status of the todo item: pending, in_progress, completed, or cancelled" }),
  priority: Type.String({ description: "Priority level: high, medium, or low" }),
});

/** Input: the complete list. */
export const TodoWriteInput = Type.Object({
  todos: Type.Array(OpenCodeTodoItem, { description: "Array of todo items — the complete updated todo list. Replaces all existing todos." }),
});
export type TodoWriteInput = Static<typeof TodoWriteInput>;

/** Output: `{"type":"Todo","TodosUpdated":{summary_for_prompt, todos, state}}`. */
export const TodoWriteOutput = Type.Object({
  type: Type.Literal("Todo"),
  TodosUpdated: Type.Object({ summary_for_prompt: Type.String(), todos: Type.Array(TodoItem), state: TodoState }),
});
export type TodoWriteOutput = Static<typeof TodoWriteOutput>;
