/** Input schema of `GrokBuildHashline:hashline_edit`: a file and a batch of anchored operations. */
import { Type, type Static } from "@grok-tools/runtime";

const ReplaceOp = Type.Object({
  op: Type.Literal("replace"),
  anchor: Type.String({ description: 'Anchor string (e.g. "22:abc:rst").' }),
  end_anchor: Type.Optional(Type.Unsafe<string | null>({ type: ["string", "null"], description: "Optional end anchor for range replacement." })),
  content: Type.String({ description: "Replacement text. Empty string deletes the matched line(s)." }),
});
const InsertAfterOp = Type.Object({
  op: Type.Literal("insert_after"),
  anchor: Type.String({ description: 'Anchor string, "0:" (BOF), or "EOF".' }),
  content: Type.String({ description: "Content to insert." }),
});
const WriteOp = Type.Object({
  op: Type.Literal("write"),
  content: Type.String({ description: "Complete new file content." }),
});

/** One edit operation, tagged by `op`. */
export const HashlineOp = Type.Union([ReplaceOp, InsertAfterOp, WriteOp]);
export type HashlineOp = Static<typeof HashlineOp>;

/** Input: `file_path` and `edits` (an array; a JSON string of one, or a single object, is accepted too). */
export const HashlineEditInput = Type.Object({
  file_path: Type.String({ description: "The path of the file to edit." }),
  edits: Type.Array(HashlineOp, { description: "One or more edit operations to apply (validated and applied bottom-up)." }),
});
export type HashlineEditInput = Static<typeof HashlineEditInput>;

/** Output: `{"type":"SearchReplace","EditsApplied":{...}}` with the scheme and the fresh-anchor snippet. */
export const HashlineEditOutput = Type.Object({
  type: Type.Literal("SearchReplace"),
  EditsApplied: Type.Object({
    old_string: Type.String(),
    new_string: Type.String(),
    tool_output_for_prompt: Type.String(),
    absolute_path: Type.String(),
    applied: Type.Integer(),
    scheme: Type.String(),
    snippet_start_line: Type.Integer(),
    warnings: Type.Array(Type.String()),
    edits: Type.Object({
      details: Type.Array(
        Type.Object({
          old_string: Type.String(),
          old_line: Type.Integer(),
          new_string: Type.String(),
          new_line: Type.Integer(),
          context_before: Type.String(),
          context_after: Type.String(),
          line_prefix: Type.String(),
        }),
      ),
    }),
  }),
});
export type HashlineEditOutput = Static<typeof HashlineEditOutput>;
