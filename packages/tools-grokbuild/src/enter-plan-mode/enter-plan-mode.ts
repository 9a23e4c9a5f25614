/** Declaration of GrokBuild:enter_plan_mode (kind enter_plan; requires exit_plan_mode, spec §3.3). */
import { defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { executeEnterPlanMode } from "./execute.js";
import { EnterPlanModeInput, EnterPlanModeOutput } from "./schema.js";

/** Fully-qualified id of the tool this one requires. */
const EXIT_PLAN_MODE_FQ_ID = "GrokBuild:exit_plan_mode";

/** GrokBuild:enter_plan_mode. */
export const enterPlanMode = defineTool({
  id: "enter_plan_mode",
  kind: "enter_plan",
  description: loadDescription(import.meta.url),
  shortDescription: "Enter read-only plan mode and seed the session plan file.",
  input: EnterPlanModeInput,
  output: EnterPlanModeOutput,
  outputFields: {
    Entered: { description: "Confirmation message, plan file path, tool name hints and the plan file's seed status." },
  },
  // Entering plan mode without a way out would be a dead end.
  requires: ({ toolset }) =>
    toolset.hasTool(EXIT_PLAN_MODE_FQ_ID)
      ? []
      : [
          {
            message: "enter_plan_mode requires GrokBuild:exit_plan_mode so plan mode can always be exited",
            fieldPath: "tools",
            expected: "include GrokBuild:exit_plan_mode",
          },
        ],
  execute: (_input, ctx) => executeEnterPlanMode(ctx),
});
