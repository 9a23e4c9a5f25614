/**
 * The shared kill logic of `kill_task` and `kill_terminal_command` (spec §4.8): SIGTERM then
 * SIGKILL to the task's tree; an unknown id is an error naming the known ids.
 */
import { ErrorCode, ToolError, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { taskManagerService } from "@grok-tools/tasks";
import type { KillTaskInput, KillTaskOutput } from "./schema.js";
import { LEGACY_0_4_10 } from "../versions.js";

/** Kills `input.task_id`. */
export async function executeKillTask(input: KillTaskInput, ctx: ToolContext<unknown>): Promise<ToolResult<KillTaskOutput>> {
  const manager = ctx.session.service(taskManagerService);
  const id = input.task_id;
  const outcome = await manager.kill(id);
  if (outcome === "not_found" && manager.subagents.has(id)) {
    const cancel = manager.subagents.cancel(id, "Subagent was cancelled");
    const result =
      cancel.kind === "cancelled"
        ? { task_id: id, outcome: "killed", message: "Subagent cancellation initiated" }
        : { task_id: id, outcome: "already_exited", message: `Subagent already ${cancel.kind === "already_finished" ? cancel.status : "cancelled"}` };
    return { output: { type: "KillTask", Result: result }, promptText: `${result.outcome}: ${result.message}` };
  }
  if (outcome === "not_found") {
    const known = manager.knownIds();
    const message =
      ctx.contractVersion === LEGACY_0_4_10
        ? `Task ${id} not found`
        : known.length === 0 && manager.subagents.knownIds().length === 0
          ? `Task or subagent ${id} not found. No background tasks or subagents exist in this session.`
          : `Task or subagent ${id} not found. Known bash task IDs: [${known.join(", ")}]`;
    throw new ToolError(ErrorCode.INVALID_INPUT, message, {
      details: { task_id: id, known_task_ids: known },
      suggestion: "Use a task id returned by a background command.",
    });
  }
  const result =
    outcome === "killed"
      ? { task_id: id, outcome: "killed", message: "Task was terminated successfully" }
      : { task_id: id, outcome: "already_exited", message: "Task had already completed" };
  return { output: { type: "KillTask", Result: result }, promptText: `${result.outcome}: ${result.message}` };
}
