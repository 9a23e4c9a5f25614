/**
 * `GrokBuild:get_terminal_command_output`: get_task_output for terminal commands only.
 */
import { defineTool } from "@grok-tools/runtime";
import { TASK_OUTPUT_FIELDS, normalizeTaskOutputInput } from "../shared/task-output/fields.js";
import { genericRequirement } from "../shared/task-output/requirements.js";
import { TaskOutputInput, TaskOutputOutput } from "../shared/task-output/schema.js";
import { taskOutputLimit, executeGetTaskOutput } from "../shared/task-output/task-output-core.js";
import { loadDescription } from "../shared/description.js";

/** `GrokBuild:get_terminal_command_output`. */
export const getTerminalCommandOutput = defineTool({
  id: "get_terminal_command_output",
  kind: "background_task_action",
  readOnly: true,
  description: loadDescription(import.meta.url),
  shortDescription: "Get output and status of background terminal commands.",
  input: TaskOutputInput,
  output: TaskOutputOutput,
  outputFields: TASK_OUTPUT_FIELDS,
  truncation: taskOutputLimit("get_terminal_command_output"),
  capabilities: { supportsCancellation: true },
  requires: ({ toolset }) => genericRequirement(toolset, false),
  normalizeInput: normalizeTaskOutputInput,
  execute: (input, ctx) => executeGetTaskOutput(input, ctx),
});
