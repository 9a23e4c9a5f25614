/**
 * `GrokBuild:kill_terminal_command`: kill_task for terminal commands only.
 */
import { defineTool } from "@grok-tools/runtime";
import { genericRequirement } from "../get-task-output/requirements.js";
import { killTask } from "../kill-task/kill-core.js";
import { KillTaskInput, KillTaskOutput } from "../kill-task/schema.js";
import { loadDescription } from "../shared/description.js";

/** `GrokBuild:kill_terminal_command`. */
export const killTerminalCommandTool = defineTool({
  id: "kill_terminal_command",
  kind: "kill_task_action",
  description: loadDescription(import.meta.url),
  shortDescription: "Terminate a background terminal command.",
  input: KillTaskInput,
  output: KillTaskOutput,
  requires: ({ toolset }) => genericRequirement(toolset, false),
  execute: (input, ctx) => killTask(input, ctx),
});
