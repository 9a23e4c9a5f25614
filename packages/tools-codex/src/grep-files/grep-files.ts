/**
 * Codex:grep_files: the files whose contents match a regular expression, newest first (ripgrep).
 */
import { defineTool } from "@grok-tools/runtime";
import { GREP_FILES_DESCRIPTION } from "./description.js";
import { executeGrepFiles } from "./execute.js";
import { CodexGrepFilesInput, CodexGrepFilesOutput } from "./schema.js";

/** The `Codex:grep_files` tool. */
export const grepFiles = defineTool({
  id: "grep_files",
  kind: "search",
  description: GREP_FILES_DESCRIPTION,
  shortDescription: "List files matching a regular expression, newest first",
  input: CodexGrepFilesInput,
  output: CodexGrepFilesOutput,
  capabilities: { supportsCancellation: true, supportsTimeout: true },
  execute: executeGrepFiles,
});
