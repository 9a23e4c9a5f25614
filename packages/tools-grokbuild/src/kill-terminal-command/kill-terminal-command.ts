/**
 * `GrokBuild:kill_terminal_command`: kill_task for terminal commands only.
 */
import { defineTool } from "@grok-tools/runtime";
import { genericRequirement } from "../shared/task-output/requirements.js";
import { executeKillTask } from "../shared/kill-task/kill-core.js";
import { KillTaskInput, KillTaskOutput } from "../shared/kill-task/schema.js";
import { loadDescription } from "../shared/description.js";

/** `GrokBuild:kill_terminal_command`. */
export const killTerminalCommand = defineTool({
  id: "kill_terminal_command",
  kind: "kill_task_action",
  description: loadDescription(import.meta.url),
  shortDescription: "Terminate a background terminal command.",
  input: KillTaskInput,
  output: KillTaskOutput,
  requires: ({ toolset }) => genericRequirement(toolset, false),
  execute: (input, ctx) => executeKillTask(input, ctx),
});
