/** The model-facing description template of Codex:grep_files (the reference's, verbatim). */
export const GREP_FILES_DESCRIPTION =
  "Finds files whose contents match the ${{ params.search.pattern }} and lists them by modification time.";
