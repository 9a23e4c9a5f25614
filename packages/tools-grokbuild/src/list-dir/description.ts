/** The model-facing texts of `GrokBuild:list_dir`, verbatim from the reference. */

/** Description template of `list_dir` (rendered with client names at finalize). */
export const LIST_DIR_DESCRIPTION =
  "Lists files and directories in a given path.\nThe '${{ params.list.target_directory }}' parameter can be relative to the workspace root or absolute.\n\nOther details:\n    - The result does not display dot-files and dot-directories.\n    - Respects .gitignore patterns (files/directories ignored by git are not shown).\n    - Large directories are summarized with file counts and extension breakdowns instead of listing all files.";

/** Notice after the root items when they alone exceed the budget (`{list}` etc. are client tool names). */
export const ROOT_TRUNCATION_NOTICE_TEMPLATE =
  "    ...\n\nNote: this directory is too large to list fully. Try {list} on a narrower path, or use {search} / {execute}.";
