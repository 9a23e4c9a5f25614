/** The model-facing description of `GrokBuild:search_replace` (verbatim from the reference, in description.md). */
import { loadDescription } from "../shared/description.js";

/** Full description template (with the overwrite-guard sentence). */
export const SEARCH_REPLACE_DESCRIPTION = loadDescription(import.meta.url);

/**
 * The overwrite-guard sentence: served only when `empty_old_string_does_not_override` is on,
 * because only then is it true.
 */
export const EMPTY_OLD_STRING_GUARD_SENTENCE = " An empty `${{ params.edit.old_string }}` cannot overwrite an existing non-empty file.";
