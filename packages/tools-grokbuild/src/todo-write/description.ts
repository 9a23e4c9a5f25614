/** The model-facing description of `GrokBuild:todo_write`, verbatim from the reference. */

/** Description template of `todo_write`. */
export const TODO_WRITE_DESCRIPTION =
  "Create and manage a structured task list. The user sees this list live — it is your primary way to show progress.\n\nUse for any task with 3+ steps. Skip for trivial single-step work.";
