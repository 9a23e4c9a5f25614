/**
 * Schemas shared by the task-output tools (`get_task_output`, `get_terminal_command_output`,
 * `wait_tasks`): inputs and the `TaskOutput` output (`Result` or `MultiResult`).
 */
import { Type, type Static } from "@grok-tools/runtime";

/** `TaskOutputToolInput` (the singular `task_id` alias is accepted but not advertised). */
export const TaskOutputInput = Type.Object({
  task_ids: Type.Optional(
    Type.Array(Type.String(), {
      description:
        "Task IDs to get output from. Pass one or more; for a single task use a one-element array. With a positive timeout_ms, multiple ids wait until all complete. Omit timeout_ms or pass 0 for a non-blocking snapshot.",
    }),
  ),
  timeout_ms: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: "Max wait time in milliseconds, up to {max_wait_ms}. A positive value waits for completion; omit or pass 0 for a non-blocking status poll.",
    }),
  ),
});
export type TaskOutputInput = Static<typeof TaskOutputInput>;

/** `WaitTasksToolInput`. */
export const WaitTasksInput = Type.Object({
  task_ids: Type.Array(Type.String(), { description: "Task IDs to wait for" }),
  mode: Type.Union([Type.Literal("wait_any"), Type.Literal("wait_all")], {
    description: "Wait mode: 'wait_any' (return when first completes) or 'wait_all' (wait for all)",
  }),
  timeout_ms: Type.Optional(Type.Integer({ minimum: 0, description: "Max wait time in milliseconds, up to {max_wait_ms}" })),
});
export type WaitTasksInput = Static<typeof WaitTasksInput>;

/** One task's status and output (`TaskOutputResult`). */
export const TaskOutputResultSchema = Type.Object({
  task_id: Type.String(),
  command: Type.String(),
  status: Type.String(),
  exit_code: Type.Union([Type.Integer(), Type.Null()]),
  started: Type.String(),
  ended: Type.Union([Type.String(), Type.Null()]),
  duration_secs: Type.Number(),
  output: Type.String(),
  output_file: Type.String(),
  truncated: Type.Boolean(),
  truncation_hint: Type.String(),
  raw_output_bytes: Type.Integer(),
});
export type TaskOutputResult = Static<typeof TaskOutputResultSchema>;

/** Several tasks at once (`MultiTaskOutputResult`). */
export const MultiTaskOutputResultSchema = Type.Object({
  mode: Type.String(),
  results: Type.Array(TaskOutputResultSchema),
  summary: Type.String(),
});
export type MultiTaskOutputResult = Static<typeof MultiTaskOutputResultSchema>;

/** `{"type":"TaskOutput","Result":{…}}` or `{"type":"TaskOutput","MultiResult":{…}}`. */
export const TaskOutputOutput = Type.Union([
  Type.Object({ type: Type.Literal("TaskOutput"), Result: TaskOutputResultSchema }),
  Type.Object({ type: Type.Literal("TaskOutput"), MultiResult: MultiTaskOutputResultSchema }),
]);
export type TaskOutputOutput = Static<typeof TaskOutputOutput>;
