/** Model-facing description of GrokBuild:exit_plan_mode (verbatim from the reference). */
export const EXIT_PLAN_MODE_DESCRIPTION = `Exit plan mode and present your plan to the user.

Use this after you have finished writing your plan to the plan file in plan mode.`;
