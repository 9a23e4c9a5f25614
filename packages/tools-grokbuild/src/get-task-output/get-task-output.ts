/**
 * `GrokBuild:get_task_output`: status and output of background tasks, polling or waiting
 * (capped), one id or several (spec §4.7).
 */
import { CURRENT_VERSION, defineTool } from "@grok-tools/runtime";
import { TASK_OUTPUT_FIELDS, normalizeTaskOutputInput } from "../shared/task-output/fields.js";
import { taskOutputRequirement } from "../shared/task-output/requirements.js";
import { TaskOutputInput, TaskOutputOutput } from "../shared/task-output/schema.js";
import { taskOutputLimit, executeGetTaskOutput } from "../shared/task-output/task-output-core.js";
import { LEGACY_0_4_10 } from "../shared/versions.js";
import { taskOutputDescription } from "../shared/task-output/description.js";

/** `GrokBuild:get_task_output`. */
export const getTaskOutput = defineTool({
  id: "get_task_output",
  kind: "background_task_action",
  // Reference: a host description override that fails to render is shown raw (spec §2.8).
  descriptionRenderFallback: "raw",
  readOnly: true,
  // Built in code, not a description.md: before finalize the listing shows the empty toolset's text, as the reference's build_task_output_description does.
  description: ({ toolset }) => taskOutputDescription(toolset),
  shortDescription: "Get output and status of background tasks.",
  input: TaskOutputInput,
  output: TaskOutputOutput,
  outputFields: TASK_OUTPUT_FIELDS,
  truncation: taskOutputLimit("get_task_output"),
  contractVersions: [CURRENT_VERSION, LEGACY_0_4_10],
  capabilities: { supportsCancellation: true },
  requires: ({ toolset }) => taskOutputRequirement(toolset),
  normalizeInput: normalizeTaskOutputInput,
  execute: (input, ctx) => executeGetTaskOutput(input, ctx),
});
