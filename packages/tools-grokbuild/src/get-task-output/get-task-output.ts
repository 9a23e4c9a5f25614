/**
 * `GrokBuild:get_task_output`: status and output of background tasks, polling or waiting
 * (capped), one id or several (spec §4.7).
 */
import { CURRENT_VERSION, defineTool } from "@grok-tools/runtime";
import { lenientOptionalInteger, lenientStringList, normalizeKey } from "@grok-tools/runtime/helpers";
import { taskOutputDescription } from "./description.js";
import { taskOutputRequirement } from "./requirements.js";
import { TaskOutputInput, TaskOutputOutput } from "./schema.js";
import { taskOutputLimit, getTaskOutput } from "./task-output-core.js";
import { LEGACY_0_4_10 } from "../shared/versions.js";

/** Accepts the singular `task_id` alias and bare ids (spec §4.0). */
export function normalizeTaskOutputInput(raw: Record<string, unknown>): Record<string, unknown> {
  const input = { ...raw };
  if (!Object.hasOwn(input, "task_ids") && Object.hasOwn(input, "task_id")) input.task_ids = input.task_id;
  delete input.task_id;
  normalizeKey(input, "task_ids", lenientStringList);
  normalizeKey(input, "timeout_ms", lenientOptionalInteger);
  return input;
}

/** Output fields advertised by the task-output tools. */
export const TASK_OUTPUT_FIELDS = {
  Result: { description: "One task's status and output." },
  MultiResult: { description: "Several tasks' status and output." },
};

/** `GrokBuild:get_task_output`. */
export const getTaskOutputTool = defineTool({
  id: "get_task_output",
  kind: "background_task_action",
  // Reference: a host description override that fails to render is shown raw (spec §2.8).
  descriptionRenderFallback: "raw",
  readOnly: true,
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
  execute: (input, ctx) => getTaskOutput(input, ctx),
});
