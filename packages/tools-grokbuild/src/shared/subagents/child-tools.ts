/**
 * Which of the parent's finalized tools a child gets (spec §7.3, §7.4): those of the type's kinds
 * (or named by its definition), kept by the capability mode, without the task tool when the child
 * could not spawn anyway, and without background/kill tools when nothing can start background work.
 */
import type { ToolsetView } from "@grok-tools/runtime";
import { keptByMode, pruneLifecycleTools, type CapabilityMode } from "./capability-mode.js";
import type { ChildTool } from "./system-prompt.js";
import type { SubagentType } from "./subagent-types.js";

/** The child's tools, in the parent's config order. */
export function resolveChildTools(toolset: ToolsetView, type: SubagentType, mode: CapabilityMode, childMaySpawn: boolean): ChildTool[] {
  const chosen = toolset.entries().filter((entry) => {
    if (entry.kind === "task" && !childMaySpawn) return false;
    const listed = type.kinds === "all" || type.kinds.includes(entry.kind) || type.toolNames.includes(entry.clientName) || type.toolNames.includes(entry.fqId);
    return listed && keptByMode(mode, entry.kind);
  });
  return pruneLifecycleTools(chosen.map((e) => ({ clientName: e.clientName, kind: e.kind })));
}
