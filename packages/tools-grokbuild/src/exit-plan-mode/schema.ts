/**
 * Schemas of GrokBuild:exit_plan_mode: an empty input (the plan is read from disk, never passed in)
 * and the `ExitPlanMode` output, `PlanReady` or `EmptyPlan` (the reference's serde shape).
 */
import { Type, type Static } from "@grok-tools/runtime";

/** Empty object: the plan comes from the plan file, so the user sees exactly what is on disk. */
export const ExitPlanModeInput = Type.Object({});
export type ExitPlanModeInput = Static<typeof ExitPlanModeInput>;

/** Output of exit_plan_mode. */
export const ExitPlanModeOutput = Type.Union([
  Type.Object({
    type: Type.Literal("ExitPlanMode"),
    PlanReady: Type.Object({
      message: Type.String(),
      plan_content: Type.String(),
      plan_file_path: Type.String(),
    }),
  }),
  Type.Object({
    type: Type.Literal("ExitPlanMode"),
    EmptyPlan: Type.Object({
      message: Type.String(),
      plan_file_path: Type.String(),
    }),
  }),
]);
export type ExitPlanModeOutput = Static<typeof ExitPlanModeOutput>;
