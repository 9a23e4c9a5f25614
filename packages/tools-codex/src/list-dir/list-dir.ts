/**
 * Codex:list_dir: a paginated, depth-limited, breadth-first listing of a folder.
 */
import { defineTool } from "@grok-tools/runtime";
import { LIST_DIR_DESCRIPTION } from "./description.js";
import { executeListDir } from "./execute.js";
import { CodexListDirInput, CodexListDirOutput } from "./schema.js";

/** The `Codex:list_dir` tool. */
export const listDir = defineTool({
  id: "list_dir",
  kind: "list_dir",
  description: LIST_DIR_DESCRIPTION,
  shortDescription: "List a folder breadth first, with depth and paging",
  input: CodexListDirInput,
  output: CodexListDirOutput,
  execute: executeListDir,
});
