/** Declaration of GrokBuild:exit_plan_mode (kind exit_plan; requires enter_plan_mode, spec §3.3). */
import { defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { executeExitPlanMode } from "./execute.js";
import { ExitPlanModeInput, ExitPlanModeOutput } from "./schema.js";

/** Fully-qualified id of the tool this one requires. */
const ENTER_PLAN_MODE_FQ_ID = "GrokBuild:enter_plan_mode";

/** GrokBuild:exit_plan_mode. */
export const exitPlanMode = defineTool({
  id: "exit_plan_mode",
  kind: "exit_plan",
  description: loadDescription(import.meta.url),
  shortDescription: "Exit plan mode and present the plan file to the user.",
  input: ExitPlanModeInput,
  output: ExitPlanModeOutput,
  outputFields: {
    PlanReady: { description: "The approval message, the plan file content and its path.", potentiallyLarge: true },
    EmptyPlan: { description: "The message for a missing or empty plan file, and its path." },
  },
  // Exiting a mode that cannot be entered makes no sense.
  requires: ({ toolset }) =>
    toolset.hasTool(ENTER_PLAN_MODE_FQ_ID)
      ? []
      : [
          {
            message: "exit_plan_mode requires GrokBuild:enter_plan_mode so plan mode can be entered before exiting",
            fieldPath: "tools",
            expected: "include GrokBuild:enter_plan_mode",
          },
        ],
  execute: (_input, ctx) => executeExitPlanMode(ctx),
});
