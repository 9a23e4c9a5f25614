/**
 * Codex:list_dir: a paginated, depth-limited, breadth-first listing of a folder.
 */
import { defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { executeListDir } from "./execute.js";
import { CodexListDirInput, CodexListDirOutput } from "./schema.js";

/** The `Codex:list_dir` tool. */
export const listDir = defineTool({
  id: "list_dir",
  kind: "list_dir",
  description: loadDescription(import.meta.url),
  shortDescription: "List a folder breadth first, with depth and paging",
  input: CodexListDirInput,
  output: CodexListDirOutput,
  execute: executeListDir,
});
