/** `OpenCode:write`: create or overwrite a whole file (spec §4.14). */
import { defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { EDITS_APPLIED_FIELDS, EditsAppliedOutput } from "../shared/edit-output.js";
import { runWrite } from "./execute.js";
import { WriteInput } from "./schema.js";

/** The `write` tool definition. */
export const write = defineTool({
  id: "write",
  kind: "write",
  description: loadDescription(import.meta.url),
  shortDescription: "Create or overwrite a file",
  input: WriteInput,
  output: EditsAppliedOutput,
  outputFields: EDITS_APPLIED_FIELDS,
  execute: (input, ctx) => runWrite(input, ctx),
});
