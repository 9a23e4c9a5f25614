/** The model-facing description of `GrokBuild:search_replace`, verbatim from the reference. */

/** Full description template (with the overwrite-guard sentence). */
export const SEARCH_REPLACE_DESCRIPTION =
  "Replace an exact string in a file.\n\n${% if tools.by_kind.read -%}\n- `${{ tools.by_kind.read }}` prefixes each line with \"LINE_NUMBER→\". That prefix is not part of the file: match only what comes after the →, with its exact indentation.\n${% endif -%}\n- `${{ params.edit.old_string }}` must match exactly one place in the file. If it appears more than once, add surrounding lines to make it unique, or set `${{ params.edit.replace_all }}` to change every occurrence (handy for renaming an identifier).\n- To create a new file, set `${{ params.edit.old_string }}` to an empty string. An empty `${{ params.edit.old_string }}` cannot overwrite an existing non-empty file.";

/**
 * The overwrite-guard sentence: served only when `empty_old_string_does_not_override` is on,
 * because only then is it true.
 */
export const EMPTY_OLD_STRING_GUARD_SENTENCE = " An empty `${{ params.edit.old_string }}` cannot overwrite an existing non-empty file.";
