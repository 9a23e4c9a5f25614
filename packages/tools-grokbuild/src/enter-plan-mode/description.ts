/** Model-facing description of GrokBuild:enter_plan_mode (verbatim from the reference). */
export const ENTER_PLAN_MODE_DESCRIPTION =
  "Use this tool when a task has ambiguity about the right approach or when the user asks you to write a plan. This tool enables a read-only plan mode where you explore the codebase and create an implementation plan for the user.";
