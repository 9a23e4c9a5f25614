/** `OpenCode:read`: a file or folder, with `N: ` line numbers (spec §4.14). */
import { defineTool } from "@grok-tools/runtime";
import { coerceKeys, lenientOptionalInteger } from "@grok-tools/runtime/helpers";
import { loadDescription } from "../shared/description.js";
import { runRead } from "./execute.js";
import { ReadInput, ReadOutput } from "./schema.js";

/** The `read` tool definition. */
export const read = defineTool({
  id: "read",
  kind: "read",
  description: loadDescription(import.meta.url),
  shortDescription: "Read a file or list a folder",
  input: ReadInput,
  output: ReadOutput,
  outputFields: {
    FileContent: { description: "The numbered text or the folder listing, with the path and line counts", potentiallyLarge: true },
    ImageContent: { description: "An image or PDF, base64", potentiallyLarge: true },
  },
  normalizeInput: (raw) => coerceKeys(raw, ["offset", "limit"], lenientOptionalInteger),
  execute: (input, ctx) => runRead(input, ctx),
});
