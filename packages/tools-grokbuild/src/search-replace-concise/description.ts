/** The model-facing description of `GrokBuildConcise:search_replace`, verbatim from the reference. */

/** Concise description template. */
export const SEARCH_REPLACE_CONCISE_DESCRIPTION =
  "Replace an exact string in a file.\n\n- Do not include the \"LINE_NUMBER→\" prefixes from file reads in ${{ params.edit.old_string }} or ${{ params.edit.new_string }}; keep the exact indentation.\n- ${{ params.edit.old_string }} must match exactly one place in the file. If it appears more than once, add surrounding lines to make it unique, or set ${{ params.edit.replace_all }} to change every occurrence (handy for renaming an identifier).\n- To create a new file, set ${{ params.edit.old_string }} to an empty string.";
