/** `OpenCode:edit`: exact string replacement in a file (spec §4.14). */
import { defineTool } from "@grok-tools/runtime";
import { coerceKeys, lenientBool } from "@grok-tools/runtime/helpers";
import { loadDescription } from "../shared/description.js";
import { EDITS_APPLIED_FIELDS, EditsAppliedOutput } from "../shared/edit-output.js";
import { runEdit } from "./execute.js";
import { EditInput } from "./schema.js";

/** The `edit` tool definition. */
export const edit = defineTool({
  id: "edit",
  kind: "edit",
  description: loadDescription(import.meta.url),
  shortDescription: "Replace exact text in a file",
  input: EditInput,
  output: EditsAppliedOutput,
  outputFields: EDITS_APPLIED_FIELDS,
  normalizeInput: (raw) => coerceKeys(raw, ["replaceAll"], lenientBool),
  execute: (input, ctx) => runEdit(input, ctx),
});
