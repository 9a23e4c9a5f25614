/** Messages and prompt text of exit_plan_mode (the reference's texts). */

/** Message when the plan file has content. */
export const PLAN_APPROVED_MESSAGE = "Your plan has been approved. You can now start coding.";

/** Message when the plan file is missing, empty or whitespace-only. */
export const EMPTY_PLAN_MESSAGE = "Plan mode exit approved. No plan content was found — you can proceed.";

/** Prompt text of `PlanReady`. */
export function formatPlanReady(message: string, planFilePath: string, planContent: string): string {
  return `${message}\n\nYour plan has been saved at: ${planFilePath}\n\n## Plan:\n${planContent}`;
}
