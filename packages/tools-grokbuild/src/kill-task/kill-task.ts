/**
 * `GrokBuild:kill_task`: terminates a background task and its whole process tree.
 */
import { CURRENT_VERSION, defineTool } from "@grok-tools/runtime";
import { genericRequirement } from "../shared/task-output/requirements.js";
import { killTaskDescription } from "./description.js";
import { executeKillTask } from "../shared/kill-task/kill-core.js";
import { KillTaskInput, KillTaskOutput } from "../shared/kill-task/schema.js";
import { LEGACY_0_4_10 } from "../shared/versions.js";

/** `GrokBuild:kill_task`. */
export const killTask = defineTool({
  id: "kill_task",
  kind: "kill_task_action",
  // Reference: a host description override that fails to render is shown raw (spec §2.8).
  descriptionRenderFallback: "raw",
  description: ({ toolset }) => killTaskDescription(toolset),
  shortDescription: "Terminate a background task.",
  input: KillTaskInput,
  output: KillTaskOutput,
  contractVersions: [CURRENT_VERSION, LEGACY_0_4_10],
  requires: ({ toolset }) => genericRequirement(toolset, true),
  execute: (input, ctx) => executeKillTask(input, ctx),
});
