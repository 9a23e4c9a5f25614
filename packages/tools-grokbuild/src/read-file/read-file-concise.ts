/**
 * `GrokBuildConcise:read_file` (spec §2.2, reference `grok_build_concise/read_file.rs`): the same read
 * as GrokBuild's, not version-managed (always current), with `content_concise` moved into `content`.
 */
import { defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { runReadFile, type ReadFileRun } from "./execute.js";
import { READ_FILE_OUTPUT_FIELDS, READ_FILE_PARAMS_ID, normalizeReadFileInput } from "./read-file.js";
import { READ_FILE_PARAMS_DEFAULTS, ReadFileInput, ReadFileOutput, ReadFileParams, type ReadFileSuccess } from "./schema.js";
import { CURSOR_RULES_ON_READ } from "./cursor-rules.js";

/** The concise `read_file` tool definition. */
export const readFileConcise = defineTool({
  id: "read_file",
  kind: "read",
  // Cursor rules already injected are state, loaded from disk before the first read.
  resources: [CURSOR_RULES_ON_READ],
  description: loadDescription(import.meta.url, "description.concise.md"),
  shortDescription: "Read a file (text window, image or PDF)",
  input: ReadFileInput,
  output: ReadFileOutput,
  outputFields: READ_FILE_OUTPUT_FIELDS,
  params: { resourceId: READ_FILE_PARAMS_ID, schema: ReadFileParams, defaults: READ_FILE_PARAMS_DEFAULTS },
  normalizeInput: normalizeReadFileInput,
  // A read made at once is answered without a promise (issue #18).
  execute(input, ctx) {
    const run = runReadFile(input, ctx, false);
    return run instanceof Promise ? run.then(conciseResult) : conciseResult(run);
  },
});

function withoutConcise<T extends { content: string; content_concise?: string }>(file: T): T {
  const { content_concise: concise, ...rest } = file;
  return { ...rest, content: concise ?? file.content } as T;
}

function conciseResult(run: ReadFileRun): { output: ReadFileSuccess; promptText: string } {
  const output: ReadFileSuccess = "FileContent" in run.output ? { type: "ReadFile", FileContent: withoutConcise(run.output.FileContent) } : run.output;
  return { output, promptText: run.promptText };
}
