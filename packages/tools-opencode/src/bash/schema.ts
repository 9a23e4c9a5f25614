/** Input and output schemas of `OpenCode:bash` (spec §4.14), and the derived types. */
import { Type, type Static } from "@grok-tools/runtime";
import { optionalString, optionalUnsigned } from "../shared/schema.js";

/** Input: `command` and `description` required; `timeout` in ms; `workdir` absolute or cwd-relative. */
export const BashInput = Type.Object({
  command: Type.String({ description: "The bash command to run." }),
  timeout: optionalUnsigned("Optional timeout in milliseconds.", "uint64"),
  workdir: optionalString("Optional working directory. Defaults to the session working directory."),
  description: Type.String({ description: "One sentence explanation as to why this command needs to be run and how it contributes to the goal." }),
});
export type BashInput = Static<typeof BashInput>;

/** Output: the reference's `Bash` variant (foreground only). */
export const BashOutput = Type.Object({
  type: Type.Literal("Bash"),
  output: Type.String(),
  output_for_prompt: Type.String(),
  exit_code: Type.Integer(),
  command: Type.String(),
  truncated: Type.Boolean(),
  signal: Type.Union([Type.String(), Type.Null()]),
  timed_out: Type.Boolean(),
  description: Type.Union([Type.String(), Type.Null()]),
  current_dir: Type.String(),
  output_file: Type.String(),
  total_bytes: Type.Integer(),
});
export type BashOutput = Static<typeof BashOutput>;
