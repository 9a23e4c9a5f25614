/** `GrokBuild:list_dir`: a gitignore-aware, budgeted directory listing (spec §4.4). */
import { CURRENT_VERSION, defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { executeListDir } from "./execute.js";
import { DEFAULT_MAX_OUTPUT_CHARS } from "./render.js";
import { LEGACY_DEFAULT_MAX_OUTPUT_BYTES } from "./versions/legacy-0-4-10.js";
import { ListDirInput, ListDirOutput, ListDirParams } from "./schema.js";
import { LEGACY_0_4_10 } from "../shared/versions.js";

/** The `list_dir` tool definition. */
export const listDir = defineTool({
  id: "list_dir",
  kind: "list",
  description: loadDescription(import.meta.url),
  shortDescription: "List a folder as a tree",
  input: ListDirInput,
  output: ListDirOutput,
  outputFields: { Content: { description: "The rendered listing and the absolute root path" } },
  params: { resourceId: "grok_build.ListDir", schema: ListDirParams, defaults: { max_output_chars: null } },
  // `max_output_chars` param, else the version's built-in: TruncationConfig does not move list_dir (spec §8.4).
  truncation: {
    key: "list_dir",
    builtin: DEFAULT_MAX_OUTPUT_CHARS,
    builtinByVersion: { [LEGACY_0_4_10]: LEGACY_DEFAULT_MAX_OUTPUT_BYTES },
    fromParams: (p: ListDirParams) => p.max_output_chars,
    truncationConfig: "ignored",
  },
  contractVersions: [CURRENT_VERSION, LEGACY_0_4_10],
  execute: executeListDir,
});
