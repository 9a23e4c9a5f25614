/**
 * Codex:grep_files: the files whose contents match a regular expression, newest first (ripgrep).
 */
import { defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { executeGrepFiles } from "./execute.js";
import { CodexGrepFilesInput, CodexGrepFilesOutput } from "./schema.js";

/** The `Codex:grep_files` tool. */
export const grepFiles = defineTool({
  id: "grep_files",
  kind: "search",
  description: loadDescription(import.meta.url),
  shortDescription: "List files matching a regular expression, newest first",
  input: CodexGrepFilesInput,
  output: CodexGrepFilesOutput,
  capabilities: { supportsCancellation: true, supportsTimeout: true },
  execute: executeGrepFiles,
});
