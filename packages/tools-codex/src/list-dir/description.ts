/** The model-facing description of Codex:list_dir (the reference's, verbatim). */
export const LIST_DIR_DESCRIPTION = "Lists entries in a local directory with 1-indexed entry numbers and simple type labels.";
