/**
 * Finalize requirements of the task tools (spec §2.2, §3.3): a background-capable bash
 * (GrokBuild or GrokBuildConcise `run_terminal_cmd` with `enabled_background`), OpenCode:bash,
 * or (for the subagent-aware tools) GrokBuild:task.
 */
import { type RequirementFailure, type ToolsetView } from "@grok-tools/runtime";

const BASH_IDS = ["GrokBuild:run_terminal_cmd", "GrokBuildConcise:run_terminal_cmd"] as const;

function backgroundEnabled(toolset: ToolsetView, fqId: string): boolean {
  const params = toolset.paramsOf(fqId) as { enabled_background?: unknown } | undefined;
  return params?.enabled_background !== false;
}

/** Whether a background-capable bash (or OpenCode:bash, or with `allowTask` GrokBuild:task) is configured. */
export function hasBackgroundProvider(toolset: ToolsetView, allowTask: boolean): boolean {
  if (BASH_IDS.some((id) => toolset.hasTool(id) && backgroundEnabled(toolset, id))) return true;
  if (toolset.hasTool("OpenCode:bash")) return true;
  return allowTask && toolset.hasTool("GrokBuild:task");
}

/** get_task_output's own requirement message, with notes on bash tools present but disabled. */
export function taskOutputRequirement(toolset: ToolsetView): RequirementFailure[] {
  if (hasBackgroundProvider(toolset, true)) return [];
  const notes = BASH_IDS.filter((id) => toolset.hasTool(id) && !backgroundEnabled(toolset, id)).map((id) => `; ${id} is present but enabled_background=false`);
  return [
    {
      message: `get_task_output requires a background-capable bash tool (GrokBuild:run_terminal_cmd or GrokBuildConcise:run_terminal_cmd with enabled_background=true), OpenCode:bash, or GrokBuild:task${notes.join("")}`,
      fieldPath: "tools",
      expected: "include a background-capable bash tool, OpenCode:bash, or GrokBuild:task",
    },
  ];
}

/** The generic failure of the other task tools (`unsatisfied requirements`). */
export function genericRequirement(toolset: ToolsetView, allowTask: boolean): RequirementFailure[] {
  return hasBackgroundProvider(toolset, allowTask) ? [] : [{ message: "unsatisfied requirements" }];
}
