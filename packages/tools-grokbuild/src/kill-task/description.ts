/**
 * The `kill_task` description, built from the live toolset like the reference's
 * `build_kill_task_description` (names resolved at finalize).
 */
import { type ToolsetView } from "@grok-tools/runtime";
import { lifecycleTargetSuffix, monitorTaskIdNote } from "../get-task-output/description.js";

/** The description for this toolset. */
export function killTaskDescription(toolset: ToolsetView): string {
  const monitor = toolset.hasKind("monitor");
  const subagent = toolset.hasKind("task");
  const verb = process.platform === "win32" ? "Terminates the Job Object of" : "Sends SIGTERM/SIGKILL to";
  let action = "";
  if (toolset.hasKind("execute")) {
    action = `${verb} a bash task${monitor ? " or monitor" : ""}${subagent ? "; sends Cancel+Shutdown to a subagent" : ""}`;
  } else if (subagent) {
    action = "Sends Cancel+Shutdown to a subagent";
  } else if (monitor) {
    action = `${verb} a monitor`;
  }
  const taskId = "${{ params.kill_task_action.task_id }}";
  return `Terminate a running background task${lifecycleTargetSuffix(monitor, subagent)}.

Usage notes:
- Pass its ${taskId}${monitorTaskIdNote(monitor)}.
- ${action}.
- Returns success if the task was killed or had already exited.`;
}
