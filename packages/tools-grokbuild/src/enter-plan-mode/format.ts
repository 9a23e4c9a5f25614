/** Prompt text of enter_plan_mode (the reference's `to_prompt_format` for `EnterPlanMode::Entered`). */
import type { EnterPlanModeOutput, PlanFileSeedStatus } from "./schema.js";

/** The confirmation message at the top of the prompt. */
export const ENTERED_MESSAGE = "You have entered plan mode. You should now focus on exploring the codebase and creating an implementation plan.";

const MISSING_DETAIL = {
  not_created: "The file has not yet been created.",
  not_a_file: "A directory already exists at that path.",
  inaccessible: "The file could not be accessed.",
  unavailable: "The plan file location is unavailable.",
} as const;

function seedDetail(seed: PlanFileSeedStatus): string {
  if (seed === "empty") return "The file exists and is empty.";
  if (seed === "non_empty") return "The file exists but is not empty.";
  return MISSING_DETAIL[seed.missing];
}

/** Renders the plan-mode instructions. */
export function formatEntered(entered: EnterPlanModeOutput["Entered"]): string {
  const { message, plan_file_path: planPath, tool_hints: hints, plan_file_seed: seed } = entered;
  const taskHint =
    hints.task === ""
      ? ""
      : `\n     You can use the ${hints.task} tool with subagent_type="explore" to parallelize codebase exploration without filling your context window.`;
  return (
    `${message}\n\n` +
    `Write your plan to ${planPath}. ${seedDetail(seed)}\n\n` +
    "In plan mode, you should:\n" +
    `1. Thoroughly explore the codebase to understand existing patterns${taskHint}\n` +
    "2. Identify similar features, codebase architecture, and understand trade-offs\n" +
    `3. Use ${hints.ask_user} if you need to clarify the approach\n` +
    "4. Design a concrete implementation strategy\n" +
    "5. Write your plan to the plan file above\n" +
    `6. When ready, use ${hints.exit_plan} to present your plan to the user.`
  );
}
