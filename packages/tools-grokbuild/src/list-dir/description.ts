/** The model-facing description of `GrokBuild:list_dir`, verbatim from the reference. */

/** Description template of `list_dir` (rendered with client names at finalize). */
export const LIST_DIR_DESCRIPTION = `Lists files and directories in a given path.
The '\${{ params.list.target_directory }}' parameter can be relative to the workspace root or absolute.

Other details:
    - The result does not display dot-files and dot-directories.
    - Respects .gitignore patterns (files/directories ignored by git are not shown).
    - Large directories are summarized with file counts and extension breakdowns instead of listing all files.`;

/** Notice after the root items when they alone exceed the budget (tool names rendered at run time). */
export const ROOT_TRUNCATION_NOTICE_TEMPLATE =
  "    ...\n\nNote: this directory is too large to list fully. Try {list} on a narrower path, or use {search} / {execute}.";
