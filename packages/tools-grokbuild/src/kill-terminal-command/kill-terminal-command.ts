/**
 * `GrokBuild:kill_terminal_command`: kill_task for terminal commands only.
 */
import { defineTool } from "@grok-tools/runtime";
import { genericRequirement } from "../shared/task-output/requirements.js";
import { executeKillTask } from "../shared/kill-task/kill-core.js";
import { KillTaskInput, KillTaskOutput } from "../shared/kill-task/schema.js";

/** The description template (verbatim from the reference). */
export const KILL_TERMINAL_COMMAND_DESCRIPTION = `Terminate a running background terminal command\${%- if tools.by_kind.monitor %} or monitor\${%- endif %}.

Usage notes:
- Pass its \${{ params.kill_task_action.task_id }}\${%- if tools.by_kind.monitor %} (a monitor's \${{ params.kill_task_action.task_id }} is returned by \${{ tools.by_kind.monitor }})\${%- endif %}.
- \${%- if is_windows %} Terminates the Job Object of\${%- else %} Sends SIGTERM/SIGKILL to\${%- endif %} a background command\${%- if tools.by_kind.monitor %} or monitor\${%- endif %}.
- Returns success if the command was killed or had already exited.`;

/** `GrokBuild:kill_terminal_command`. */
export const killTerminalCommand = defineTool({
  id: "kill_terminal_command",
  kind: "kill_task_action",
  description: KILL_TERMINAL_COMMAND_DESCRIPTION,
  shortDescription: "Terminate a background terminal command.",
  input: KillTaskInput,
  output: KillTaskOutput,
  requires: ({ toolset }) => genericRequirement(toolset, false),
  execute: (input, ctx) => executeKillTask(input, ctx),
});
