/** Input and output schemas of `OpenCode:grep` (spec §4.14). */
import { Type, type Static } from "@grok-tools/runtime";
import { optionalString } from "../shared/schema.js";

/** Input: a regex `pattern`, an optional folder `path` and file glob `include`. */
export const GrepInput = Type.Object({
  pattern: Type.String({ description: "The regex pattern to search for." }),
  path: optionalString("Directory to search in. Defaults to the current working directory."),
  include: optionalString('File glob filter (e.g. "*.ts").'),
});
export type GrepInput = Static<typeof GrepInput>;

const GrepLineMatch = Type.Object({ line_number: Type.Integer(), content: Type.String() });
const GrepFileMatch = Type.Object({ path: Type.String(), matches: Type.Array(GrepLineMatch) });
export type GrepFileMatch = Static<typeof GrepFileMatch>;

/** Output: `{"type":"GrepSearch", stdout, stderr, exit_code, match_count, file_matches}` (text as strings, D6). */
export const GrepOutput = Type.Object({
  type: Type.Literal("GrepSearch"),
  stdout: Type.String(),
  stderr: Type.String(),
  exit_code: Type.Integer(),
  match_count: Type.Integer(),
  file_matches: Type.Array(GrepFileMatch),
});
export type GrepOutput = Static<typeof GrepOutput>;
