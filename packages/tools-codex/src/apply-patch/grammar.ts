/**
 * The Codex patch grammar, written once: this exact text is the grammar block of the tool description
 * (which must match the reference byte for byte), and grammar.test.ts checks the parser against it.
 */

/** The grammar lines, as the model sees them. */
export const PATCH_GRAMMAR_LINES: readonly string[] = [
  "Patch := Begin { FileOp } End",
  'Begin := "*** Begin Patch" NEWLINE',
  'End := "*** End Patch" NEWLINE',
  "FileOp := AddFile | DeleteFile | UpdateFile",
  'AddFile := "*** Add File: " path NEWLINE { "+" line NEWLINE }',
  'DeleteFile := "*** Delete File: " path NEWLINE',
  'UpdateFile := "*** Update File: " path NEWLINE [ MoveTo ] { Hunk }',
  'MoveTo := "*** Move to: " newPath NEWLINE',
  'Hunk := "@@" [ header ] NEWLINE { HunkLine } [ "*** End of File" NEWLINE ]',
  'HunkLine := (" " | "-" | "+") text NEWLINE',
];

/** The grammar, one rule per line. */
export const PATCH_GRAMMAR = PATCH_GRAMMAR_LINES.join("\n");
