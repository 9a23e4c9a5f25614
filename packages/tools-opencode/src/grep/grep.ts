/** `OpenCode:grep`: regex search of file contents, newest file first (spec §4.14). */
import { defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { runGrep } from "./execute.js";
import { GrepInput, GrepOutput } from "./schema.js";

/** The `grep` tool definition. */
export const grep = defineTool({
  id: "grep",
  kind: "search",
  description: loadDescription(import.meta.url),
  shortDescription: "Search file contents with a regular expression",
  input: GrepInput,
  output: GrepOutput,
  outputFields: {
    stdout: { description: "The formatted matches", potentiallyLarge: true },
    file_matches: { description: "The shown matches by file", potentiallyLarge: true },
  },
  capabilities: { supportsCancellation: true },
  execute: (input, ctx) => runGrep(input, ctx),
});
