/**
 * Runs one `OpenCode:edit` call (spec §4.14): validation → create (empty `oldString`) or exact
 * replacement → one atomic, confined write under the path's lock → tracker update → FileWritten.
 * No gitignore check, no line-ending normalisation and no hints, as the reference. A file edited
 * after it was read must still hold what was read (decision D2); a never-read file may be edited,
 * since OpenCode declares no read requirement.
 */
import { ErrorCode, ToolError, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import {
  PATH_LOCKS,
  errnoCode,
  openConfined,
  readFileConfined,
  readTracker,
  resolveForCreate,
  resolveModelPath,
  writeFileConfined,
} from "@grok-tools/runtime/fs";
import { variantError } from "../shared/failure.js";
import type { EditsAppliedOutput } from "../shared/edit-output.js";
import type { EditInput } from "./schema.js";
import { editDetails, matchPositions, numberedContent, renderSnippet, replaceAt } from "./snippet.js";

const fail = (code: ErrorCode, variant: string, message: string, options: { suggestion?: string; filePath?: string } = {}) =>
  variantError("SearchReplace", variant, code, message, options);

/** What one edit needs. */
interface EditCall {
  input: EditInput;
  ctx: ToolContext;
  absolute: string;
}

/** Validates, then creates or replaces under the file's lock. */
export async function runEdit(input: EditInput, ctx: ToolContext): Promise<ToolResult<EditsAppliedOutput>> {
  const absolute = resolveModelPath(ctx.cwd, input.filePath);
  if (await isDirectory(ctx, absolute, input.filePath))
    throw fail(ErrorCode.INVALID_INPUT, "InvalidInput", "File path is a directory", { filePath: input.filePath });
  if (input.oldString === input.newString) {
    throw fail(ErrorCode.INVALID_INPUT, "InvalidInput", "Old string and new string are the same", {
      suggestion: `Send a ${ctx.names.ownParam("newString")} that differs from ${ctx.names.ownParam("oldString")}.`,
    });
  }
  const call: EditCall = { input, ctx, absolute };
  // One lock per real target path, so two spellings of one file share it.
  const lockKey = await resolveForCreate(absolute).catch(() => absolute);
  return ctx.session.service(PATH_LOCKS).withLock(lockKey, () => (input.oldString === "" ? createFile(call) : replaceInFile(call)));
}

async function isDirectory(ctx: ToolContext, absolute: string, shown: string): Promise<boolean> {
  try {
    const opened = await openConfined(ctx.session, absolute, shown);
    await opened.handle.close();
    return opened.stat.isDirectory();
  } catch (error) {
    if (ToolError.is(error)) throw error;
    return false;
  }
}

/** The file's bytes, or undefined when it does not exist. */
async function readExisting(call: EditCall): Promise<{ bytes: Buffer; realPath: string } | undefined> {
  try {
    const read = await readFileConfined(call.ctx.session, call.absolute, { displayPath: call.input.filePath });
    return { bytes: read.bytes, realPath: read.realPath };
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw asToolError(error, call.input.filePath);
  }
}

function asToolError(error: unknown, shown: string): unknown {
  if (ToolError.is(error)) return error;
  if (errnoCode(error) === "EACCES" || errnoCode(error) === "EPERM") {
    return new ToolError(ErrorCode.PERMISSION_DENIED, `Permission denied: ${shown}`, { filePath: shown });
  }
  return new ToolError(ErrorCode.EXECUTION_FAILED, (error as Error).message ?? String(error), { filePath: shown });
}

async function write(call: EditCall, content: string): Promise<string> {
  try {
    const written = await writeFileConfined(call.ctx.session, call.absolute, content, {
      displayPath: call.input.filePath,
      tracker: readTracker(call.ctx.session),
    });
    return written.realPath;
  } catch (error) {
    throw asToolError(error, call.input.filePath);
  }
}

async function createFile(call: EditCall): Promise<ToolResult<EditsAppliedOutput>> {
  const { input, ctx } = call;
  const existing = await readExisting(call);
  if (existing !== undefined && existing.bytes.length > 0) {
    throw fail(
      ErrorCode.FILE_ALREADY_EXISTS,
      "FileAlreadyExists",
      "oldString is empty, which is only allowed when creating a new file or when the file is empty.",
      {
        suggestion: `Give the exact text to replace as ${ctx.names.ownParam("oldString")}, or write the whole file with the write tool.`,
        filePath: input.filePath,
      },
    );
  }
  const realPath = await write(call, input.newString);
  ctx.notify({ type: "FileWritten", tool_call_id: ctx.callId, absolute_path: realPath, content: input.newString, is_new_file: true });
  const promptText = `The file ${input.filePath} has been created. Here's the content:\n\n${numberedContent(input.newString)}`;
  const concise = `The file ${input.filePath} has been created.`;
  const detail = { old_string: "", old_line: 1, new_string: input.newString, new_line: 1, context_before: "", context_after: "", line_prefix: "" };
  return result(input.oldString, input.newString, promptText, concise, realPath, [detail]);
}

async function replaceInFile(call: EditCall): Promise<ToolResult<EditsAppliedOutput>> {
  const { input, ctx } = call;
  const existing = await readExisting(call);
  if (existing === undefined) {
    throw fail(ErrorCode.FILE_NOT_FOUND, "FileNotFound", `File not found: ${input.filePath}. Please check the path and try again.`, {
      filePath: input.filePath,
    });
  }
  // Changed on disk since this session read or wrote it: refuse, so an edit never undoes someone else's.
  readTracker(ctx.session).checkBeforeEdit(existing.realPath, existing.bytes, {
    skipReadBeforeEdit: true,
    displayPath: input.filePath,
    ...(ctx.names.tool("read") !== undefined ? { readToolName: ctx.names.tool("read") } : {}),
  });
  const oldText = existing.bytes.toString("utf8");
  const positions = matchPositions(oldText, input.oldString);
  if (positions.length === 0) {
    throw fail(
      ErrorCode.NO_MATCHES,
      "NoMatchesFound",
      "The string to replace was not found in the file. Make sure it matches exactly, including whitespace and indentation.",
      {
        suggestion: "Read the file again and copy the exact text to replace.",
        filePath: input.filePath,
      },
    );
  }
  const replaceAll = input.replaceAll === true;
  if (positions.length > 1 && !replaceAll) {
    const replaceAllName = ctx.names.param("edit", "replaceAll");
    throw fail(
      ErrorCode.MULTIPLE_MATCHES,
      "MultipleMatchesFound",
      `The string to replace was found multiple times in the file. Use ${replaceAllName} to replace all occurrences, or include more context to only edit one occurrence.`,
      { suggestion: `Set ${replaceAllName}=true, or include more surrounding lines in ${ctx.names.ownParam("oldString")}.`, filePath: input.filePath },
    );
  }
  const chosen = replaceAll ? positions : positions.slice(0, 1);
  const { text: newText, starts } = replaceAt(oldText, chosen, input.oldString, input.newString);
  const realPath = await write(call, newText);
  ctx.notify({ type: "FileWritten", tool_call_id: ctx.callId, absolute_path: realPath, content: newText, previous_content: oldText, is_new_file: false });
  const details = editDetails(newText, input.oldString, input.newString, starts);
  if (starts.length === 1) {
    const { snippet } = renderSnippet(newText, input.newString, starts[0]!);
    return result(
      input.oldString,
      input.newString,
      `The file ${input.filePath} has been updated. Here's a relevant snippet of the edited file:\n\n${snippet}`,
      `The file ${input.filePath} has been updated.`,
      realPath,
      details,
    );
  }
  return result(
    input.oldString,
    input.newString,
    `All ${starts.length} occurrences of the specified string were successfully replaced in ${input.filePath}.`,
    `The file ${input.filePath} has been updated. All occurrences were successfully replaced.`,
    realPath,
    details,
  );
}

function result(
  oldString: string,
  newString: string,
  promptText: string,
  concise: string,
  absolutePath: string,
  details: EditsAppliedOutput["EditsApplied"]["edits"]["details"],
): ToolResult<EditsAppliedOutput> {
  return {
    output: {
      type: "SearchReplace",
      EditsApplied: {
        old_string: oldString,
        new_string: newString,
        tool_output_for_prompt: promptText,
        tool_output_for_prompt_concise: concise,
        absolute_path: absolutePath,
        edits: { details },
      },
    },
    promptText,
    promptTextConcise: concise,
  };
}
