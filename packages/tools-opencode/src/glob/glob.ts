/** `OpenCode:glob`: files by name pattern, newest first (spec §4.14). */
import { defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { runGlob } from "./execute.js";
import { GlobInput, TextOutput } from "./schema.js";

/** The `glob` tool definition. */
export const glob = defineTool({
  id: "glob",
  kind: "list",
  description: loadDescription(import.meta.url),
  shortDescription: "Find files by glob pattern",
  input: GlobInput,
  output: TextOutput,
  outputFields: { text: { description: "The matching paths, newest first", potentiallyLarge: true } },
  capabilities: { supportsCancellation: true },
  execute: (input, ctx) => runGlob(input, ctx),
});
