/** The model-facing description of Codex:read_file (the reference's, verbatim). */
export const READ_FILE_DESCRIPTION =
  "Reads a local file with 1-indexed line numbers, supporting slice and indentation-aware block modes.";
