/** Input, output and params schemas of `GrokBuild:search_replace` and its concise twin (spec §4.3). */
import { Type, type Static } from "@grok-tools/runtime";

export const SearchReplaceInput = Type.Object({
  file_path: Type.String({
    description: "The path to the file to modify. You can use either a relative path in the workspace or an absolute path.",
  }),
  old_string: Type.String({ description: "The text to replace" }),
  new_string: Type.String({ description: "The text to replace it with (must be different from ${{ params.edit.old_string }})" }),
  replace_all: Type.Optional(Type.Boolean({ default: false, description: "Replace all occurrences of ${{ params.edit.old_string }} (default false)" })),
});
export type SearchReplaceInput = Static<typeof SearchReplaceInput>;

/** Params resource `grok_build.SearchReplace` (shared with the concise twin). */
export const SearchReplaceParams = Type.Object(
  {
    skip_read_before_edit: Type.Boolean(),
    empty_old_string_does_not_override: Type.Boolean(),
    unicode_normalized_fallback: Type.Boolean(),
    include_user_edit_hint: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type SearchReplaceParams = Static<typeof SearchReplaceParams>;

/** Defaults of {@link SearchReplaceParams}. */
export const SEARCH_REPLACE_PARAM_DEFAULTS: SearchReplaceParams = {
  skip_read_before_edit: false,
  empty_old_string_does_not_override: false,
  unicode_normalized_fallback: false,
  include_user_edit_hint: true,
};

const EditDetail = Type.Object({
  old_string: Type.String(),
  old_line: Type.Integer(),
  new_string: Type.String(),
  new_line: Type.Integer(),
  context_before: Type.String(),
  context_after: Type.String(),
  line_prefix: Type.String(),
});

/** Output: `{"type":"SearchReplace","EditsApplied":{...}}`. */
export const SearchReplaceOutput = Type.Object({
  type: Type.Literal("SearchReplace"),
  EditsApplied: Type.Object({
    old_string: Type.String(),
    new_string: Type.String(),
    tool_output_for_prompt: Type.String(),
    tool_output_for_prompt_concise: Type.Optional(Type.String()),
    absolute_path: Type.String(),
    edits: Type.Object({
      details: Type.Array(EditDetail),
      omitted: Type.Optional(Type.Integer({ description: "Replacements not listed in `details` (with `content_omitted`)." })),
    }),
    unicode_normalized: Type.Optional(Type.Boolean()),
    content_omitted: Type.Optional(
      Type.Literal(true, {
        description:
          "The edit's strings were left out to keep the reply under 1 MiB of echoed text: `old_string`, `new_string` and the details' strings are empty, the details keep their line numbers.",
      }),
    ),
    old_string_bytes: Type.Optional(Type.Integer({ description: "Size of the replaced string, in bytes (with `content_omitted`)." })),
    new_string_bytes: Type.Optional(Type.Integer({ description: "Size of the new string, in bytes (with `content_omitted`)." })),
    replacements: Type.Optional(Type.Integer({ description: "How many occurrences were replaced (with `content_omitted`)." })),
  }),
});
export type SearchReplaceOutput = Static<typeof SearchReplaceOutput>;
