/** Input and output schemas of `GrokBuild:todo_write` (spec §4.6), and the derived types. */
import { Type, type Static } from "@grok-tools/runtime";

/** The statuses a todo can have. */
export const TODO_STATUSES = ["pending", "in_progress", "completed", "cancelled"] as const;
/** A todo status. */
export type TodoStatus = (typeof TODO_STATUSES)[number];

/** One todo of a request: only `id` is required. */
export const TodoUpdate = Type.Object({
  id: Type.String({ description: "Unique identifier for the todo item" }),
  content: Type.Optional(Type.Unsafe<string | null>({ type: ["string", "null"], description: "The description/content of the todo item" })),
  status: Type.Optional(
    Type.Unsafe<TodoStatus | null>({
      description: "The status of the todo item: pending, in_progress, completed, or cancelled",
      // schemars renders a unit enum as one string schema with `enum` (spec §2.9).
      anyOf: [{ type: "string", enum: [...TODO_STATUSES] }, { type: "null" }],
    }),
  ),
});
export type TodoUpdate = Static<typeof TodoUpdate>;

/** Input of `todo_write` (camelCase keys, as the reference). */
export const TodoWriteInput = Type.Object({
  merge: Type.Optional(
    Type.Boolean({
      default: true,
      description:
        "Optional. When true (default), merges the provided todos into the existing list by id — send only the items you are changing, and to flip status without changing content send just id + status. When false, the provided todos replace the existing list.",
    }),
  ),
  todos: Type.Array(TodoUpdate, { description: "Array of todo items to write to the workspace" }),
});
export type TodoWriteInput = Static<typeof TodoWriteInput>;

/** One stored todo (the reference's `TodoItem`, camelCase). */
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

/** Output of `todo_write`: `{"type":"Todo","TodosUpdated":{...}}`. */
export const TodoWriteOutput = Type.Object({
  type: Type.Literal("Todo"),
  TodosUpdated: Type.Object({
    summary_for_prompt: Type.String(),
    todos: Type.Array(TodoItem),
    state: TodoState,
  }),
});
export type TodoWriteOutput = Static<typeof TodoWriteOutput>;
