/**
 * Input and output of the kill tools (`KillTaskToolInput`, `KillTaskOutput::Result`).
 */
import { Type, type Static } from "@grok-tools/runtime";

/** `{ task_id }`. */
export const KillTaskInput = Type.Object({ task_id: Type.String({ description: "The task ID to terminate" }) });
export type KillTaskInput = Static<typeof KillTaskInput>;

/** `{"type":"KillTask","Result":{task_id,outcome,message}}`. */
export const KillTaskOutput = Type.Object({
  type: Type.Literal("KillTask"),
  Result: Type.Object({ task_id: Type.String(), outcome: Type.String(), message: Type.String() }),
});
export type KillTaskOutput = Static<typeof KillTaskOutput>;
