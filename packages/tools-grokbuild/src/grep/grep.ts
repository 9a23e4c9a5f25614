/** `GrokBuild:grep`: a ripgrep search with budgets and the reference's output format (spec §4.5). */
import { CURRENT_VERSION, defineTool } from "@grok-tools/runtime";
import { coerceKeys, dropNullKeys, lenientBool, lenientInteger } from "@grok-tools/runtime/helpers";
import { loadDescription } from "../shared/description.js";
import { executeGrep } from "./execute.js";
import { DEFAULT_MAX_OUTPUT_BYTES } from "./format.js";
import { GrepInput, GrepOutput, GrepParams } from "./schema.js";

/** The `grep` tool definition. */
export const grep = defineTool({
  id: "grep",
  kind: "search",
  description: loadDescription(import.meta.url),
  shortDescription: "Search file contents with ripgrep",
  input: GrepInput,
  output: GrepOutput,
  outputFields: {
    stdout: { description: "The formatted result, as shown to the model", potentiallyLarge: true },
    stderr: { description: "ripgrep's error output" },
    exit_code: { description: "ripgrep's exit code (0 matches, 1 none)" },
    match_count: { description: "Matching lines, files or the summed count, by mode" },
    file_matches: { description: "Per-file match lines (content mode)", potentiallyLarge: true },
  },
  params: {
    resourceId: "grok_build.Grep",
    schema: GrepParams,
    defaults: { max_output_bytes: null, max_chars_per_line: null },
  },
  // Its own params limit only: TruncationConfig does not move grep (spec §8.4).
  truncation: { key: "grep", builtin: DEFAULT_MAX_OUTPUT_BYTES, fromParams: (p: GrepParams) => p.max_output_bytes, truncationConfig: "ignored" },
  contractVersions: [CURRENT_VERSION],
  capabilities: { supportsCancellation: true, supportsTimeout: true },
  normalizeInput: (raw) =>
    coerceKeys(
      coerceKeys(dropNullKeys(raw, ["-A", "-B", "-C", "head_limit"]), ["-i", "multiline"], lenientBool),
      ["-A", "-B", "-C", "head_limit"],
      lenientInteger,
    ),
  execute: executeGrep,
});
