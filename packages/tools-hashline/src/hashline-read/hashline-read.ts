/**
 * `GrokBuildHashline:hashline_read`: a text file as `N:ANCHOR→content` lines, so that
 * hashline_edit can check that the lines it changes are the ones the model saw.
 */
import { ErrorCode, defineTool } from "@grok-tools/runtime";
import { readTracker, resolveModelPath } from "@grok-tools/runtime/fs";
import { coerceKeys, lenientOptionalInteger } from "@grok-tools/runtime/helpers";
import { loadDescription } from "../shared/description.js";
import { variantError } from "../shared/failure.js";
import { formatAnchored } from "../shared/format.js";
import { looksBinary } from "../shared/binary.js";
import { splitLines } from "../shared/lines.js";
import { HASHLINE_PARAMS_SPEC, renderExamples, schemeOf, type HashlineSchemeParams } from "../shared/params.js";
import { readTextFile } from "../shared/read-text.js";
import { HashlineReadInput, HashlineReadOutput } from "./schema.js";

const TEMPLATE = loadDescription(import.meta.url);

/** The `hashline_read` tool definition. */
export const hashlineRead = defineTool({
  id: "hashline_read",
  kind: "read",
  description: ({ params }) => renderExamples(TEMPLATE, params),
  shortDescription: "Read a file with line anchors",
  input: HashlineReadInput,
  output: HashlineReadOutput,
  outputFields: { FileContent: { description: "The anchored lines, the path and line counts", potentiallyLarge: true } },
  params: HASHLINE_PARAMS_SPEC,
  normalizeInput: (raw) => coerceKeys(raw, ["offset", "limit"], lenientOptionalInteger),
  async execute(input, ctx) {
    const params = ctx.params as HashlineSchemeParams;
    const absolute = resolveModelPath(ctx.cwd, input.target_file);
    const file = await readTextFile(ctx, absolute, input.target_file, "ReadFile", "FileNotFound");
    if (file === undefined) {
      throw variantError("ReadFile", "FileNotFound", ErrorCode.FILE_NOT_FOUND, `Error: ${absolute} does not exist.`, { filePath: absolute });
    }
    if (looksBinary(file.bytes))
      throw variantError("ReadFile", "FileReadError", ErrorCode.INVALID_INPUT, `Cannot read binary file: ${file.realPath}`, { filePath: file.realPath });
    readTracker(ctx.session).recordRead(file.realPath, file.bytes, file.stat);
    const scheme = schemeOf(params);
    const offset = input.offset ?? 1;
    if (offset < 1) throw variantError("ReadFile", "FileReadError", ErrorCode.INVALID_INPUT, `${ctx.names.ownParam("offset")} must be >= 1`);
    if (input.limit !== undefined && input.limit < 0)
      throw variantError("ReadFile", "FileReadError", ErrorCode.INVALID_INPUT, `${ctx.names.ownParam("limit")} must be >= 0`);
    const maxLines = ctx.session.truncation.maxLinesRead;
    const limit = Math.min(input.limit ?? Number.MAX_SAFE_INTEGER, maxLines);
    const totalLines = file.text === "" ? 0 : splitLines(file.text).length;
    const { text, raw, shown } = file.text === "" ? { text: "", raw: "", shown: 0 } : formatAnchored(file.text, scheme, offset, limit);
    const promptText = file.text === "" ? "File is empty." : text;
    return {
      output: {
        type: "ReadFile" as const,
        FileContent: {
          content: text,
          absolute_path: file.realPath,
          offset: input.offset ?? null,
          limit: input.limit ?? null,
          raw_output: raw,
          total_lines: totalLines,
          scheme: scheme.name,
        },
      },
      promptText,
      truncated: offset - 1 + shown < totalLines,
    };
  },
});
