/** `OpenCode:bash`: one foreground shell command (spec §4.14). */
import { defineTool } from "@grok-tools/runtime";
import { lenientOptionalInteger, coerceKeys } from "@grok-tools/runtime/helpers";
import { loadDescription } from "../shared/description.js";
import { DEFAULT_OUTPUT_LIMIT_CHARS, runBash } from "./execute.js";
import { BashInput, BashOutput } from "./schema.js";

/** The `bash` tool definition. */
export const bash = defineTool({
  id: "bash",
  kind: "execute",
  description: loadDescription(import.meta.url),
  shortDescription: "Run a shell command in the foreground",
  input: BashInput,
  output: BashOutput,
  outputFields: {
    output: { description: "The command's combined output (head and tail when truncated)", potentiallyLarge: true },
    output_for_prompt: { description: "The output as the model sees it", potentiallyLarge: true },
  },
  // The reference keys the budget `bash` (TruncationCfg.max_output_bytes_for("bash", 20 000)), in characters.
  truncation: { key: "bash", builtin: DEFAULT_OUTPUT_LIMIT_CHARS },
  capabilities: { supportsCancellation: true, supportsTimeout: true },
  normalizeInput: (raw) => coerceKeys(raw, ["timeout"], lenientOptionalInteger),
  execute: (input, ctx) => runBash(input, ctx),
});
