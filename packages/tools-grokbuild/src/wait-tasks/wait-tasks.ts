/**
 * `GrokBuild:wait_tasks`: waits for several background tasks, wait_any or wait_all, and
 * always answers in the multi-result format (spec §4.7, §13.4).
 */
import { defineTool } from "@grok-tools/runtime";
import { lenientOptionalInteger, normalizeKey } from "@grok-tools/runtime/helpers";
import { TASK_OUTPUT_FIELDS } from "../shared/task-output/fields.js";
import { genericRequirement } from "../shared/task-output/requirements.js";
import { TaskOutputOutput, WaitTasksInput } from "../shared/task-output/schema.js";
import { taskOutputLimit, executeWaitTasks } from "../shared/task-output/task-output-core.js";
import { waitTasksDescription } from "../shared/task-output/description.js";

/** `GrokBuild:wait_tasks`. */
export const waitTasks = defineTool({
  id: "wait_tasks",
  kind: "wait_tasks_action",
  // Reference: a host description override that fails to render is shown raw (spec §2.8).
  descriptionRenderFallback: "raw",
  readOnly: true,
  // Built in code, not a description.md: before finalize the listing shows the empty toolset's text, as the reference's build_wait_tasks_description does.
  description: ({ toolset }) => waitTasksDescription(toolset),
  shortDescription: "Wait for background tasks to complete.",
  input: WaitTasksInput,
  output: TaskOutputOutput,
  outputFields: TASK_OUTPUT_FIELDS,
  truncation: taskOutputLimit("wait_tasks"),
  capabilities: { supportsCancellation: true },
  requires: ({ toolset }) => genericRequirement(toolset, true),
  normalizeInput: (raw) => {
    const input = { ...raw };
    normalizeKey(input, "timeout_ms", lenientOptionalInteger);
    return input;
  },
  execute: (input, ctx) => executeWaitTasks(input, ctx),
});
