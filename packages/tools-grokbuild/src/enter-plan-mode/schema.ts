/**
 * Schemas of GrokBuild:enter_plan_mode: an empty input and the `EnterPlanMode` output
 * (`{"type":"EnterPlanMode","Entered":{...}}`, the reference's serde shape).
 */
import { Type, type Static } from "@grok-tools/runtime";

/** Empty object: entering plan mode is a binary gate. */
export const EnterPlanModeInput = Type.Object({});
export type EnterPlanModeInput = Static<typeof EnterPlanModeInput>;

/** Why the plan file is not a ready (empty or non-empty) file. */
export const PlanFileSeedFailure = Type.Union([
  Type.Literal("not_created"),
  Type.Literal("not_a_file"),
  Type.Literal("inaccessible"),
  Type.Literal("unavailable"),
]);
export type PlanFileSeedFailure = Static<typeof PlanFileSeedFailure>;

/** Result of probing / seeding the plan file: `"empty"`, `"non_empty"` or `{"missing": reason}`. */
export const PlanFileSeedStatus = Type.Union([Type.Literal("empty"), Type.Literal("non_empty"), Type.Object({ missing: PlanFileSeedFailure })]);
export type PlanFileSeedStatus = Static<typeof PlanFileSeedStatus>;

/** Client-facing names of the tools the plan-mode prompt mentions. */
export const EnterPlanModeToolHints = Type.Object({
  ask_user: Type.String({ description: "Client-facing name of the ask_user tool." }),
  exit_plan: Type.String({ description: "Client-facing name of the exit_plan tool." }),
  task: Type.String({ description: "Client-facing name of the task tool; empty when none is configured." }),
});
export type EnterPlanModeToolHints = Static<typeof EnterPlanModeToolHints>;

/** Output of enter_plan_mode. */
export const EnterPlanModeOutput = Type.Object({
  type: Type.Literal("EnterPlanMode"),
  Entered: Type.Object({
    message: Type.String(),
    plan_file_path: Type.String(),
    tool_hints: EnterPlanModeToolHints,
    plan_file_seed: PlanFileSeedStatus,
  }),
});
export type EnterPlanModeOutput = Static<typeof EnterPlanModeOutput>;
