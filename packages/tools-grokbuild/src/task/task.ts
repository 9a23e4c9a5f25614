/**
 * Declaration of GrokBuild:task (kind task; params `grok_build.Task`): runs a subagent through the
 * session's subagent host (spec §4.9, §7). Requires a background_task_action and a
 * kill_task_action tool, so that children can be observed and cancelled.
 */
import { defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { executeTask } from "./execute.js";
import { normalizeTaskInput } from "./normalize.js";
import { TASK_PARAMS_DEFAULTS, TaskInput, TaskOutput, TaskParams } from "./schema.js";

/** GrokBuild:task. */
export const task = defineTool({
  id: "task",
  kind: "task",
  description: loadDescription(import.meta.url),
  shortDescription: "Run a subagent on a task, in the background or in this call.",
  input: TaskInput,
  output: TaskOutput,
  outputFields: {
    Text: { description: "Started in (or moved to) the background: the subagent_id and how to wait for it." },
    SubagentCompleted: { description: "The finished subagent's report, id, type, tool calls, turns and duration.", potentiallyLarge: true },
  },
  params: { resourceId: "grok_build.Task", schema: TaskParams, defaults: TASK_PARAMS_DEFAULTS },
  capabilities: { supportsCancellation: true },
  normalizeInput: normalizeTaskInput,
  // Spec §3.3: by kind (get_terminal_command_output / kill_terminal_command satisfy them too).
  requires: ({ toolset }) => {
    const missing = [
      ...(toolset.hasKind("background_task_action") ? [] : ["GrokBuild:get_task_output"]),
      ...(toolset.hasKind("kill_task_action") ? [] : ["GrokBuild:kill_task"]),
    ];
    return missing.length === 0
      ? []
      : [
          {
            message: `task requires ${missing.join(" and ")} so spawned background subagents can be monitored and cancelled`,
            fieldPath: "tools",
            expected: "include get_task_output and kill_task",
          },
        ];
  },
  execute: executeTask,
});
