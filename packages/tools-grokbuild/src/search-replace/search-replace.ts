/** `GrokBuild:search_replace`: exact-string edits and file creation (spec §4.3, decisions D1–D3). */
import { CURRENT_VERSION, defineTool, type RequirementFailure } from "@grok-tools/runtime";
import { FILE_READ_TRACKER } from "@grok-tools/runtime/fs";
import { EMPTY_OLD_STRING_GUARD_SENTENCE, SEARCH_REPLACE_DESCRIPTION } from "./description.js";
import { executeSearchReplace } from "../shared/search-replace/execute.js";
import { SEARCH_REPLACE_OUTPUT_FIELDS, normalizeSearchReplaceInput } from "../shared/search-replace/fields.js";
import { SEARCH_REPLACE_PARAM_DEFAULTS, SearchReplaceInput, SearchReplaceOutput, SearchReplaceParams } from "../shared/search-replace/schema.js";
import { LEGACY_0_4_10 } from "../shared/versions.js";

/** The `search_replace` tool definition. */
export const searchReplace = defineTool({
  id: "search_replace",
  kind: "edit",
  // The overwrite guard sentence is true only when the guard param is on.
  description: ({ params }) =>
    params.empty_old_string_does_not_override ? SEARCH_REPLACE_DESCRIPTION : SEARCH_REPLACE_DESCRIPTION.replace(EMPTY_OLD_STRING_GUARD_SENTENCE, ""),
  shortDescription: "Replace an exact string in a file, or create a file",
  input: SearchReplaceInput,
  output: SearchReplaceOutput,
  outputFields: SEARCH_REPLACE_OUTPUT_FIELDS,
  params: { resourceId: "grok_build.SearchReplace", schema: SearchReplaceParams, defaults: SEARCH_REPLACE_PARAM_DEFAULTS },
  contractVersions: [CURRENT_VERSION, LEGACY_0_4_10],
  requires: ({ params, toolset }): RequirementFailure[] =>
    params.skip_read_before_edit || toolset.hasKind("read")
      ? []
      : [
          {
            message: "skip_read_before_edit=false requires a Read tool in the toolset so files can be read before editing",
            fieldPath: "params.skip_read_before_edit",
            expected: "set skip_read_before_edit=true or include a Read tool such as GrokBuild:read_file",
            badValue: false,
          },
        ],
  resources: [FILE_READ_TRACKER],
  normalizeInput: normalizeSearchReplaceInput,
  execute: (input, ctx) => executeSearchReplace(input, ctx, "full"),
});
