/**
 * `GrokBuildConcise:search_replace`: the same edit (the engine in `shared/search-replace/`, which
 * `GrokBuild:search_replace` runs too) with the concise description and texts. It never
 * requires a prior read (the reference's concise twin skips the read guard); content changed since a
 * recorded read is still refused.
 */
import { FILE_READ_TRACKER } from "@grok-tools/runtime/fs";
import { defineTool } from "@grok-tools/runtime";
import { executeSearchReplace } from "../shared/search-replace/execute.js";
import { SEARCH_REPLACE_OUTPUT_FIELDS, normalizeSearchReplaceInput } from "../shared/search-replace/fields.js";
import { SEARCH_REPLACE_PARAM_DEFAULTS, SearchReplaceInput, SearchReplaceOutput, SearchReplaceParams } from "../shared/search-replace/schema.js";
import { loadDescription } from "../shared/description.js";

/** The concise `search_replace` tool definition. */
export const searchReplaceConcise = defineTool({
  id: "search_replace",
  kind: "edit",
  description: loadDescription(import.meta.url),
  shortDescription: "Replace an exact string in a file, or create a file",
  input: SearchReplaceInput,
  output: SearchReplaceOutput,
  outputFields: SEARCH_REPLACE_OUTPUT_FIELDS,
  params: { resourceId: "grok_build.SearchReplace", schema: SearchReplaceParams, defaults: SEARCH_REPLACE_PARAM_DEFAULTS },
  resources: [FILE_READ_TRACKER],
  normalizeInput: normalizeSearchReplaceInput,
  execute: (input, ctx) => executeSearchReplace(input, ctx, "concise"),
});
