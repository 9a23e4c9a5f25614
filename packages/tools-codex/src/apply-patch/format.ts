/**
 * The success summary of Codex:apply_patch: one `A`/`M`/`D` line per file, absolute paths.
 */
import type { ApplyPatchFileResult } from "./schema.js";

const ACTION_LETTER: Readonly<Record<ApplyPatchFileResult["action"], string>> = {
  added: "A",
  deleted: "D",
  moved: "M",
  modified: "M",
};

/** `Success. Updated the following files:\n` followed by `{letter} {path}\n` per file (moves show the source). */
export function formatSummary(files: readonly ApplyPatchFileResult[]): string {
  let out = "Success. Updated the following files:\n";
  for (const file of files) out += `${ACTION_LETTER[file.action]} ${file.path}\n`;
  return out;
}
