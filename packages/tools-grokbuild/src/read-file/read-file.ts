/** `GrokBuild:read_file`: read a text window, an image or a PDF (spec §4.2), in the current and legacy-0.4.10 versions. */
import { defineTool } from "@grok-tools/runtime";
import { lenientInteger } from "@grok-tools/runtime/helpers";
import { loadDescription } from "../shared/description.js";
import { runReadFile } from "./execute.js";
import { READ_FILE_PARAMS_DEFAULTS, ReadFileInput, ReadFileOutput, ReadFileParams } from "./schema.js";
import { LEGACY_0_4_10 } from "./versions/legacy-0-4-10.js";
import { CURSOR_RULES_ON_READ } from "./cursor-rules.js";

/** Params resource id, shared with the concise twin. */
export const READ_FILE_PARAMS_ID = "grok_build.ReadFile";

/** Lenient `offset` (numeric strings, whole floats); `null` for optional fields means absent. */
export function normalizeReadFileInput(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === null && (key === "offset" || key === "limit" || key === "pages" || key === "format")) continue;
    out[key] = key === "offset" ? lenientInteger(value) : value;
  }
  return out;
}

/** The read_file output fields, as advertised in ToolInfo. */
export const READ_FILE_OUTPUT_FIELDS = {
  FileContent: { description: "The read window: content (numbered lines), absolute_path, offset, limit, raw_output, total_lines" },
  ImageContent: { description: "An image file: base64 data and mime_type" },
  PdfPageImages: { description: "Rendered PDF pages" },
};

/** The `read_file` tool definition. */
export const readFile = defineTool({
  id: "read_file",
  kind: "read",
  // Cursor rules already injected are state, loaded from disk before the first read.
  resources: [CURSOR_RULES_ON_READ],
  description: loadDescription(import.meta.url),
  shortDescription: "Read a file (text window, image or PDF)",
  input: ReadFileInput,
  output: ReadFileOutput,
  outputFields: READ_FILE_OUTPUT_FIELDS,
  params: { resourceId: READ_FILE_PARAMS_ID, schema: ReadFileParams, defaults: READ_FILE_PARAMS_DEFAULTS },
  contractVersions: ["current", LEGACY_0_4_10],
  normalizeInput: normalizeReadFileInput,
  // The read's own result (output and prompt text), at once when it was made at once (issue #18).
  execute: (input, ctx) => runReadFile(input, ctx, ctx.contractVersion === LEGACY_0_4_10),
});
