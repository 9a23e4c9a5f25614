/**
 * Codex:apply_patch: edits, creates, deletes and moves files with one patch in the Codex format.
 */
import { defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { executeApplyPatch } from "./execute.js";
import { ApplyPatchInput, ApplyPatchOutput } from "./schema.js";

/** The `Codex:apply_patch` tool. */
export const applyPatch = defineTool({
  id: "apply_patch",
  kind: "edit",
  description: loadDescription(import.meta.url),
  shortDescription: "Apply a multi-file patch in the Codex patch format",
  input: ApplyPatchInput,
  output: ApplyPatchOutput,
  outputFields: {
    Success: { description: "The files changed (with their old and new text) and the summary shown to the model.", potentiallyLarge: true },
  },
  execute: executeApplyPatch,
});
