/**
 * Runs one `OpenCode:write` call (spec §4.14): the whole file replaced (parents created) with one
 * atomic, confined write under the path's lock, recorded in the read tracker, FileWritten sent.
 */
import { ErrorCode, ToolError, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { PATH_LOCKS, errnoCode, readFileConfined, readTracker, resolveForCreate, resolveModelPath, writeFileConfined } from "@grok-tools/runtime/fs";
import type { EditsAppliedOutput } from "../shared/edit-output.js";
import type { WriteInput } from "./schema.js";

function asToolError(error: unknown, shown: string): unknown {
  if (ToolError.is(error)) return error;
  const code = errnoCode(error);
  if (code === "EACCES" || code === "EPERM") return new ToolError(ErrorCode.PERMISSION_DENIED, `Permission denied: ${shown}`, { filePath: shown });
  if (code === "EISDIR")
    return new ToolError(ErrorCode.INVALID_INPUT, `Cannot write ${shown}: it is a directory.`, { filePath: shown, suggestion: "Give the path of a file." });
  return new ToolError(ErrorCode.EXECUTION_FAILED, (error as Error).message ?? String(error), { filePath: shown });
}

/** Writes the file and builds the result. */
export async function runWrite(input: WriteInput, ctx: ToolContext): Promise<ToolResult<EditsAppliedOutput>> {
  const absolute = resolveModelPath(ctx.cwd, input.file_path);
  const lockKey = await resolveForCreate(absolute).catch(() => absolute);
  return ctx.session.service(PATH_LOCKS).withLock(lockKey, async () => {
    let previous: string | undefined;
    try {
      previous = (await readFileConfined(ctx.session, absolute, { displayPath: input.file_path })).bytes.toString("utf8");
    } catch (error) {
      if (ToolError.is(error)) throw error;
      if (errnoCode(error) !== "ENOENT") throw asToolError(error, input.file_path);
    }
    let realPath: string;
    try {
      realPath = (await writeFileConfined(ctx.session, absolute, input.content, { displayPath: input.file_path, tracker: readTracker(ctx.session) })).realPath;
    } catch (error) {
      throw asToolError(error, input.file_path);
    }
    const existed = previous !== undefined;
    ctx.notify({
      type: "FileWritten",
      tool_call_id: ctx.callId,
      absolute_path: realPath,
      content: input.content,
      ...(existed ? { previous_content: previous } : {}),
      is_new_file: !existed,
    });
    const promptText = existed ? `Wrote file successfully to ${absolute}.` : `The file ${absolute} has been created.`;
    const detail = { old_string: previous ?? "", old_line: 1, new_string: input.content, new_line: 1, context_before: "", context_after: "", line_prefix: "" };
    return {
      output: {
        type: "SearchReplace" as const,
        EditsApplied: {
          old_string: previous ?? "",
          new_string: input.content,
          tool_output_for_prompt: promptText,
          tool_output_for_prompt_concise: promptText,
          absolute_path: absolute,
          edits: { details: [detail] },
        },
      },
      promptText,
      promptTextConcise: promptText,
    };
  });
}
