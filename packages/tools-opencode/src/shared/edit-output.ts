/** The `SearchReplace` output shape shared by OpenCode:edit and OpenCode:write (`EditsApplied`). */
import { Type, type Static } from "@grok-tools/runtime";

const EditDetail = Type.Object({
  old_string: Type.String(),
  old_line: Type.Integer(),
  new_string: Type.String(),
  new_line: Type.Integer(),
  context_before: Type.String(),
  context_after: Type.String(),
  line_prefix: Type.String(),
});
export type EditDetail = Static<typeof EditDetail>;

/** Output: `{"type":"SearchReplace","EditsApplied":{...}}`. */
export const EditsAppliedOutput = Type.Object({
  type: Type.Literal("SearchReplace"),
  EditsApplied: Type.Object({
    old_string: Type.String(),
    new_string: Type.String(),
    tool_output_for_prompt: Type.String(),
    tool_output_for_prompt_concise: Type.String(),
    absolute_path: Type.String(),
    edits: Type.Object({ details: Type.Array(EditDetail) }),
  }),
});
export type EditsAppliedOutput = Static<typeof EditsAppliedOutput>;

/** The outputFields entry of the two tools. */
export const EDITS_APPLIED_FIELDS = {
  EditsApplied: { description: "The strings replaced, the texts shown, the real path and each replacement with its context", potentiallyLarge: true },
};
