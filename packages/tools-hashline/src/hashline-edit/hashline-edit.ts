/**
 * `GrokBuildHashline:hashline_edit`: anchored replace / insert_after / write operations, checked
 * against the file as it is now and applied all or nothing, with one atomic confined write under
 * the path's lock. The anchors are the freshness check (a stale one is refused with fresh anchors),
 * so no read-before-edit record is required; the write is recorded in the read tracker.
 */
import { ErrorCode, ToolError, defineTool, type ToolContext } from "@grok-tools/runtime";
import { PATH_LOCKS, errnoCode, readTracker, resolveForCreate, resolveModelPath, rustIoErrorText, writeFileConfined } from "@grok-tools/runtime/fs";
import { loadDescription } from "../shared/description.js";
import { variantError } from "../shared/failure.js";
import { HASHLINE_PARAMS_SPEC, renderExamples, schemeOf, type HashlineSchemeParams } from "../shared/params.js";
import { readTextFile } from "../shared/read-text.js";
import { applyEdits, SNIPPET_CONTEXT_LINES, type EditFailure, type RegionDetail } from "./apply.js";
import { HashlineEditInput, HashlineEditOutput } from "./schema.js";

const TEMPLATE = loadDescription(import.meta.url);

/** `edits` sent as a JSON string, or as one object, becomes the array the schema wants. */
function normalizeEdits(raw: Record<string, unknown>): Record<string, unknown> {
  const edits = raw.edits;
  if (typeof edits === "string") {
    try {
      return { ...raw, edits: JSON.parse(edits) as unknown };
    } catch (error) {
      throw ToolError.invalidInput(`edits was a JSON string but could not be parsed as an array of operations: ${(error as Error).message}`, {
        suggestion: "Send edits as a JSON array of operations.",
      });
    }
  }
  if (typeof edits === "object" && edits !== null && !Array.isArray(edits)) return { ...raw, edits: [edits] };
  return raw;
}

function refused(failure: EditFailure, filePath: string): ToolError {
  if (failure.kind === "invalid_input") return variantError("SearchReplace", "InvalidInput", ErrorCode.INVALID_INPUT, failure.message, { filePath });
  return new ToolError(ErrorCode.NO_MATCHES, failure.message, {
    filePath,
    suggestion: failure.shiftedAnchor !== undefined ? `Retry with anchor "${failure.shiftedAnchor}".` : "Retry with the fresh anchors shown in the message.",
    details: { type: "SearchReplace", NoMatchesFound: { message: failure.message, file_path: filePath, error: failure.kind } },
  });
}

/** The output details of each region, with three lines of old context (the reference's diff metadata). */
function detailsOf(old: string, regions: readonly RegionDetail[], newText: string) {
  if (regions.length === 0) {
    return [{ old_string: old, old_line: 1, new_string: newText, new_line: 1, context_before: "", context_after: "", line_prefix: "" }];
  }
  const oldLines = old.split("\n");
  return regions.map((d) => {
    const idx = d.oldLine - 1;
    const from = Math.max(idx - SNIPPET_CONTEXT_LINES, 0);
    const after = idx + (d.oldText === "" ? 0 : d.oldText.split("\n").length);
    const afterEnd = Math.min(after + SNIPPET_CONTEXT_LINES, oldLines.length);
    return {
      old_string: d.oldText,
      old_line: d.oldLine,
      new_string: d.newText,
      new_line: d.newLine,
      context_before: from < idx ? `${oldLines.slice(from, idx).join("\n")}\n` : "",
      context_after: after < afterEnd ? `${oldLines.slice(after, afterEnd).join("\n")}\n` : "",
      line_prefix: "",
    };
  });
}

async function runEdit(input: HashlineEditInput, ctx: ToolContext) {
  if (input.edits.length === 0)
    throw variantError("SearchReplace", "InvalidInput", ErrorCode.INVALID_INPUT, "No edit operations provided.", {
      suggestion: "Send at least one operation in edits.",
    });
  const scheme = schemeOf(ctx.params as HashlineSchemeParams);
  const absolute = resolveModelPath(ctx.cwd, input.file_path);
  const lockKey = await resolveForCreate(absolute).catch(() => absolute);
  return ctx.session.service(PATH_LOCKS).withLock(lockKey, async () => {
    const file = await readTextFile(ctx, absolute, input.file_path, "SearchReplace", "FileNotFound");
    const only = input.edits[0];
    if (file === undefined && !(input.edits.length === 1 && only?.op === "write")) {
      throw variantError("SearchReplace", "FileNotFound", ErrorCode.FILE_NOT_FOUND, `Error: ${absolute} does not exist.`, {
        filePath: absolute,
        suggestion: 'Check the path; to create the file, send one {"op":"write"} operation.',
      });
    }
    const old = file?.text ?? "";
    const applied = applyEdits(old, input.edits, scheme);
    if (!applied.ok) throw refused(applied.failure, input.file_path);
    const { newText, snippet, snippetStartLine, warnings, details } = applied.value;
    let realPath: string;
    try {
      realPath = (await writeFileConfined(ctx.session, absolute, newText, { displayPath: input.file_path, tracker: readTracker(ctx.session) })).realPath;
    } catch (error) {
      if (ToolError.is(error)) throw error;
      const code = errnoCode(error) === "EACCES" || errnoCode(error) === "EPERM" ? ErrorCode.PERMISSION_DENIED : ErrorCode.EXECUTION_FAILED;
      // The reference is Rust: its io::Error text (`Not a directory (os error 20)`), which also keeps
      // the server's absolute paths out of the answer.
      throw new ToolError(code, `Edits validated but failed to write file: ${rustIoErrorText(error)}.`, { filePath: input.file_path });
    }
    ctx.notify({
      type: "FileWritten",
      tool_call_id: ctx.callId,
      absolute_path: realPath,
      content: newText,
      ...(file ? { previous_content: old } : {}),
      is_new_file: file === undefined,
    });
    const promptText = warnings.length === 0 ? snippet : `${warnings.join("\n")}\n\n${snippet}`;
    return {
      output: {
        type: "SearchReplace" as const,
        EditsApplied: {
          old_string: old,
          new_string: newText,
          tool_output_for_prompt: promptText,
          absolute_path: realPath,
          applied: input.edits.length,
          scheme: scheme.name,
          snippet_start_line: snippetStartLine,
          warnings,
          edits: { details: detailsOf(old, details, newText) },
        },
      },
      promptText,
    };
  });
}

/** The `hashline_edit` tool definition. */
export const hashlineEdit = defineTool({
  id: "hashline_edit",
  kind: "edit",
  description: ({ params }) => renderExamples(TEMPLATE, params),
  shortDescription: "Edit a file by line anchors",
  input: HashlineEditInput,
  output: HashlineEditOutput,
  outputFields: { EditsApplied: { description: "The old and new text, the fresh-anchor snippet, warnings and each region", potentiallyLarge: true } },
  params: HASHLINE_PARAMS_SPEC,
  normalizeInput: normalizeEdits,
  execute: (input, ctx) => runEdit(input, ctx),
});
