/**
 * The standard and hashline file bundles never mix (spec §3.2 step 4): a toolset with any of
 * GrokBuild's read_file, search_replace, grep and any hashline tool is refused at finalize. The
 * GrokBuild namespace declares the same rule; the runtime runs one rule per id, so a server with
 * both namespaces reports the conflict once.
 */
import { defineToolsetRule } from "@grok-tools/runtime";

const STANDARD_FILE_TOOLS = ["GrokBuild:read_file", "GrokBuild:search_replace", "GrokBuild:grep"];
const HASHLINE_FILE_TOOLS = ["GrokBuildHashline:hashline_read", "GrokBuildHashline:hashline_edit", "GrokBuildHashline:hashline_grep"];

/** `file_toolset_conflict`. */
export const fileToolsetConflictRule = defineToolsetRule({
  id: "file_toolset_conflict",
  check(toolset) {
    const ids = toolset.toolIds;
    if (!ids.some((id) => STANDARD_FILE_TOOLS.includes(id)) || !ids.some((id) => HASHLINE_FILE_TOOLS.includes(id))) return [];
    return [
      {
        toolId: "(file-toolset)",
        fieldPath: "tools",
        message:
          "mixed standard and hashline file tools are not allowed. Use either the standard bundle (read_file, search_replace, grep) or the hashline bundle (hashline_read, hashline_edit, hashline_grep), not both.",
      },
    ];
  },
});
