/**
 * `GrokBuild:kill_task`: terminates a background task and its whole process tree.
 */
import { CURRENT_VERSION, defineTool } from "@grok-tools/runtime";
import { genericRequirement } from "../shared/task-output/requirements.js";
import { executeKillTask } from "../shared/kill-task/kill-core.js";
import { KillTaskInput, KillTaskOutput } from "../shared/kill-task/schema.js";
import { LEGACY_0_4_10 } from "../shared/versions.js";
import { killTaskDescription } from "../shared/task-output/description.js";

/** `GrokBuild:kill_task`. */
export const killTask = defineTool({
  id: "kill_task",
  kind: "kill_task_action",
  // Reference: a host description override that fails to render is shown raw (spec §2.8).
  descriptionRenderFallback: "raw",
  // Built in code, not a description.md: before finalize the listing shows the empty toolset's text, as the reference's build_kill_task_description does.
  description: ({ toolset }) => killTaskDescription(toolset),
  shortDescription: "Terminate a background task.",
  input: KillTaskInput,
  output: KillTaskOutput,
  contractVersions: [CURRENT_VERSION, LEGACY_0_4_10],
  requires: ({ toolset }) => genericRequirement(toolset, true),
  execute: (input, ctx) => executeKillTask(input, ctx),
});
