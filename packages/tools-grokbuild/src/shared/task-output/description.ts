/**
 * The `get_task_output`, `wait_tasks` and `kill_task` descriptions, built from the live toolset like the
 * reference's `build_task_output_description` / `build_wait_tasks_description`; names are
 * template expressions resolved at finalize against client-facing names.
 */
import { type ToolsetView } from "@grok-tools/runtime";

/** `, monitor, or subagent` / ` or monitor` / ` or subagent` / ``. */
export function lifecycleTargetSuffix(monitor: boolean, subagent: boolean): string {
  if (monitor && subagent) return ", monitor, or subagent";
  if (monitor) return " or monitor";
  if (subagent) return " or subagent";
  return "";
}

const TASK_ID_PARAM = '${{ params.kill_task_action.task_id if (params.kill_task_action and params.kill_task_action.task_id) else "task_id" }}';

/** ` (a monitor's {task_id} is returned by {monitor})` when a monitor tool exists. */
export function monitorTaskIdNote(monitor: boolean): string {
  return monitor ? ` (a monitor's ${TASK_ID_PARAM} is returned by \${{ tools.by_kind.monitor }})` : "";
}

/** `{bg}=true commands or {run_in_background}=true subagents` and its variants. */
export function backgroundSources(toolset: ToolsetView): string {
  const bash = toolset.hasKind("execute");
  const subagent = toolset.hasKind("task");
  const b = "${{ params.execute.is_background }}";
  const s = "${{ params.task.run_in_background }}";
  if (bash && subagent)
    return `\${%- if params.execute.is_background == params.task.run_in_background %}${b}=true commands or subagents\${%- else %}${b}=true commands or ${s}=true subagents\${%- endif %}`;
  if (bash) return `${b}=true commands`;
  if (subagent) return `${s}=true subagents`;
  return "background tasks";
}

/** The `get_task_output` description. */
export function taskOutputDescription(toolset: ToolsetView): string {
  const monitor = toolset.hasKind("monitor");
  const target = lifecycleTargetSuffix(monitor, toolset.hasKind("task"));
  const ids = "${{ params.background_task_action.task_ids }}";
  const timeout = "${{ params.background_task_action.timeout_ms }}";
  const readNote = toolset.hasKind("read") ? "\n- If output is large, use ${{ tools.by_kind.read }} on the output_file path" : "";
  return `Get output and status from a background task${target}.

Usage notes:
- Pass ${ids} with one or more ids from ${backgroundSources(toolset)}${monitorTaskIdNote(monitor)}; for a single task use a one-element array. Multiple ids with a positive ${timeout} wait until all complete
- Omit ${timeout} or pass 0 for a non-blocking status snapshot; set a positive ${timeout} to wait up to that many milliseconds, capped at {max_wait_ms}
- Returns current output, status, and exit code if completed${readNote}`;
}

/** The `wait_tasks` description. */
export function waitTasksDescription(toolset: ToolsetView): string {
  const retrieval = toolset.hasKind("background_task_action") ? "${{ tools.by_kind.background_task_action }}" : "get_task_output";
  return `Wait for multiple background tasks or subagents to complete.

Prefer ${retrieval} with task_ids and a positive timeout_ms. This tool is kept for compatibility.

Usage notes:
- task_ids: list of task IDs from ${backgroundSources(toolset)}
- mode: 'wait_all' or 'wait_any'
- timeout_ms: optional max wait, default 30s, capped at {max_wait_ms}`;
}

/** The `kill_task` description, like the reference's `build_kill_task_description`. */
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
