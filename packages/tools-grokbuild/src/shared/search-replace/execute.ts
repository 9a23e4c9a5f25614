/**
 * `search_replace` execution (spec §4.3, decisions D1–D3): path checks, then, under the per-path
 * lock, read (confined) → read-tracker check → exact (or confusable-normalized) match → atomic write
 * keeping mode, CRLF and BOM → tracker update → FileWritten notification. Failures are ToolErrors
 * with the reference's texts; `details` carries the reference's output variant.
 */
import { ErrorCode, ToolError, type ToolContext } from "@grok-tools/runtime";
import {
  PATH_LOCKS,
  errnoCode,
  readFileConfined,
  readTracker,
  resolveForCreate,
  resolveModelPath,
  statPathConfined,
  writeFileConfined,
  type ReadResult,
  rustIoErrorText,
} from "@grok-tools/runtime/fs";
import { GITIGNORE_POLICY, isGitignored } from "../gitignore.js";
import { displayJoin, resolveUnicodeFileName } from "../paths.js";
import { findNormalizedMatches, matchIndices } from "./confusables.js";
import { creationEcho, replacementEcho, type EditEcho } from "./bounded-echo.js";
import { replaceSpans } from "./edit.js";
import { createdTexts, updatedTexts } from "./format.js";
import { confusableHint, nearestMatchHint } from "./hints.js";
import type { SearchReplaceInput, SearchReplaceOutput, SearchReplaceParams } from "./schema.js";
import { legacyMessages, type LegacyNames } from "./versions/legacy-0-4-10.js";
import { LEGACY_0_4_10 } from "../versions.js";

/** POSIX `NAME_MAX`: the longest file or folder name, in bytes. */
export const NAME_MAX_BYTES = 255;

/** Which tool runs: the full one, or the concise twin (never needs a prior read, concise texts). */
export type SearchReplaceVariant = "full" | "concise";

interface Names extends LegacyNames {
  executeTool: string;
}

interface Call {
  input: SearchReplaceInput;
  ctx: ToolContext<SearchReplaceParams>;
  variant: SearchReplaceVariant;
  legacy: boolean;
  names: Names;
  absolute: string;
}

type Result = { output: SearchReplaceOutput; promptText: string; promptTextConcise?: string };

/** A failure with the reference's variant in `details` (`{"type":"SearchReplace","NoMatchesFound":…}`). */
function fail(code: ErrorCode, variant: string, message: string, options: { filePath?: string; suggestion?: string; payload?: unknown } = {}): ToolError {
  return new ToolError(code, message, {
    ...(options.filePath === undefined ? {} : { filePath: options.filePath }),
    ...(options.suggestion === undefined ? {} : { suggestion: options.suggestion }),
    details: { type: "SearchReplace", [variant]: options.payload ?? message },
  });
}

/** A file name over NAME_MAX (legacy reports it as the generic InvalidInput variant). */
function fileNameTooLong(message: string, legacy: boolean): ToolError {
  return fail(ErrorCode.INVALID_INPUT, legacy ? "InvalidInput" : "FilenameTooLong", message, { suggestion: "Use a shorter file name." });
}

/** Runs `search_replace` for either variant. */
export async function executeSearchReplace(input: SearchReplaceInput, ctx: ToolContext<SearchReplaceParams>, variant: SearchReplaceVariant): Promise<Result> {
  const legacy = ctx.contractVersion === LEGACY_0_4_10;
  const names: Names = {
    filePath: input.file_path,
    readTool: ctx.names.tool("read") ?? "",
    replaceAllParam: ctx.names.param("edit", "replace_all"),
    oldStringParam: ctx.names.param("edit", "old_string"),
    executeTool: ctx.names.tool("execute") ?? "",
  };
  let absolute = resolveModelPath(ctx.cwd, input.file_path);
  const info = await statPathConfined(ctx.session, absolute, input.file_path).catch((error: unknown) => {
    if (ToolError.is(error)) throw error;
    return errnoCode(error) ?? "ERROR";
  });
  if (info === "ENOENT") absolute = (await resolveUnicodeFileName(ctx.session, absolute)) ?? absolute;
  for (const part of input.file_path.split("/")) {
    const bytes = Buffer.byteLength(part);
    if (part !== "." && part !== ".." && bytes > NAME_MAX_BYTES) {
      throw fileNameTooLong(`Error: file name exceeds the ${NAME_MAX_BYTES}-character limit (${bytes} characters). Please use a shorter file name.`, legacy);
    }
  }
  if (typeof info !== "string" && info.isDirectory()) {
    throw fail(ErrorCode.INVALID_INPUT, "InvalidInput", "File path is a directory", { filePath: input.file_path });
  }
  if (!legacy && (await ignoredByGit(ctx, absolute))) {
    throw fail(ErrorCode.INVALID_INPUT, "InvalidInput", `Error: ${input.file_path} is ignored by .gitignore and cannot be edited.`, {
      filePath: input.file_path,
    });
  }
  if (input.old_string === input.new_string) {
    throw fail(ErrorCode.INVALID_INPUT, "InvalidInput", "Old string and new string are the same", {
      suggestion: "Send a new_string that differs from old_string.",
    });
  }
  const call: Call = { input, ctx, variant, legacy, names, absolute };
  // One lock per real target path, so two spellings of one file share it.
  const lockKey = await resolveForCreate(absolute).catch(() => absolute);
  return ctx.session.service(PATH_LOCKS).withLock(lockKey, () => (input.old_string === "" ? createFile(call) : replaceInFile(call)));
}

async function ignoredByGit(ctx: ToolContext<SearchReplaceParams>, absolute: string): Promise<boolean> {
  const policy = ctx.session.service(GITIGNORE_POLICY);
  if (!policy.filterEnabled || policy.respectGitignore === false) return false;
  return isGitignored(ctx.session, ctx.session.workspace, absolute);
}

function notFound(call: Call): ToolError {
  const message = call.legacy ? legacyMessages.fileNotFound(call.names) : `Error: ${displayJoin(call.ctx.cwd, call.input.file_path)} does not exist.`;
  return fail(ErrorCode.FILE_NOT_FOUND, call.legacy ? "InvalidInput" : "FileNotFound", message, {
    filePath: call.input.file_path,
    suggestion: "Check the path; to create a new file, send an empty old_string.",
  });
}

/** The D2 check before changing an existing file. */
function checkTracker(call: Call, read: ReadResult): void {
  readTracker(call.ctx.session).checkBeforeEdit(read.realPath, read.bytes, {
    skipReadBeforeEdit: call.variant === "concise" || call.ctx.params.skip_read_before_edit,
    displayPath: call.input.file_path,
    ...(call.names.readTool === "" ? {} : { readToolName: call.names.readTool }),
  });
}

/** Reads the current file; undefined when it does not exist. Other errors are mapped for `replace`. */
async function readCurrent(call: Call, missingOk: boolean): Promise<ReadResult | undefined> {
  try {
    return await readFileConfined(call.ctx.session, call.absolute, { displayPath: call.input.file_path });
  } catch (error) {
    if (ToolError.is(error)) throw error;
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") {
      if (missingOk) return undefined;
      throw notFound(call);
    }
    if (missingOk) return undefined;
    const p = call.input.file_path;
    if (code === "EISDIR") throw fail(ErrorCode.INVALID_INPUT, "InvalidInput", `Error: ${p} is a directory, not a file.`, { filePath: p });
    if (code === "ENAMETOOLONG")
      throw fileNameTooLong(`Error: file name exceeds the ${NAME_MAX_BYTES}-character limit. Please use a shorter file name.`, call.legacy);
    if (code === "EACCES" || code === "EPERM") {
      throw fail(ErrorCode.PERMISSION_DENIED, "InvalidInput", `Error: permission denied reading ${p}.`, { filePath: p });
    }
    throw new ToolError(ErrorCode.EXECUTION_FAILED, rustIoErrorText(error), { filePath: p, cause: error });
  }
}

/** Writes through the one confined atomic writer, mapping failures to the reference's texts. */
async function write(call: Call, content: string, verb: "create" | "write"): Promise<string> {
  try {
    const written = await writeFileConfined(call.ctx.session, call.absolute, content, { displayPath: call.input.file_path });
    return written.realPath;
  } catch (error) {
    if (ToolError.is(error)) throw error;
    const p = call.input.file_path;
    const code = errnoCode(error);
    if (code === "ENOENT" && verb === "create") throw notFound(call);
    if (code === "EEXIST" || code === "ENOTDIR") {
      throw fail(
        ErrorCode.INVALID_INPUT,
        "InvalidInput",
        `Error: cannot ${verb} ${p}. A component of the path already exists as a file where a directory is expected.`,
        { filePath: p },
      );
    }
    if (code === "ENAMETOOLONG")
      throw fileNameTooLong(`Error: file name exceeds the ${NAME_MAX_BYTES}-character limit. Please use a shorter file name.`, call.legacy);
    const message = `Error: failed to write ${p}: ${rustIoErrorText(error)}`;
    const errorCode = code === "EACCES" || code === "EPERM" ? ErrorCode.PERMISSION_DENIED : ErrorCode.EXECUTION_FAILED;
    throw fail(errorCode, "InvalidInput", message, { filePath: p });
  }
}

/** An `EditsApplied` in the reference's key order, with the (bounded) echo of the edit. */
function withEcho(
  echo: EditEcho,
  rest: Pick<SearchReplaceOutput["EditsApplied"], "tool_output_for_prompt" | "tool_output_for_prompt_concise" | "absolute_path" | "unicode_normalized">,
): SearchReplaceOutput["EditsApplied"] {
  const { old_string, new_string, edits, ...summary } = echo;
  const { unicode_normalized, ...texts } = rest;
  return { old_string, new_string, ...texts, edits, ...(unicode_normalized ? { unicode_normalized } : {}), ...summary };
}

function result(call: Call, applied: SearchReplaceOutput["EditsApplied"], texts: { full: string; concise: string }): Result {
  if (call.variant === "concise") {
    // The concise twin shows the short text and drops the separate concise field.
    const { tool_output_for_prompt_concise: _dropped, ...rest } = applied;
    const output: SearchReplaceOutput = { type: "SearchReplace", EditsApplied: { ...rest, tool_output_for_prompt: texts.concise } };
    return { output, promptText: texts.concise };
  }
  return { output: { type: "SearchReplace", EditsApplied: applied }, promptText: texts.full, promptTextConcise: texts.concise };
}

/** Empty `old_string`: create the file, or overwrite it unless the guard param forbids it. */
async function createFile(call: Call): Promise<Result> {
  const { input, ctx } = call;
  const existing = await readCurrent(call, true);
  const nonEmpty = existing !== undefined && existing.bytes.length > 0;
  if (nonEmpty && ctx.params.empty_old_string_does_not_override) {
    const message = legacyMessages.fileAlreadyExists(call.names);
    throw fail(ErrorCode.FILE_ALREADY_EXISTS, call.legacy ? "InvalidInput" : "FileAlreadyExists", message, {
      filePath: input.file_path,
      suggestion: "Edit the existing file with a non-empty old_string instead.",
    });
  }
  if (nonEmpty) checkTracker(call, existing);
  const realPath = await write(call, input.new_string, "create");
  readTracker(ctx.session).recordWrite(realPath, input.new_string);
  ctx.notify({
    type: "FileWritten",
    tool_call_id: ctx.callId,
    absolute_path: realPath,
    content: input.new_string,
    ...(nonEmpty ? { previous_content: existing.bytes.toString("utf8") } : {}),
    is_new_file: !nonEmpty,
  });
  const texts = createdTexts(input.file_path);
  return result(
    call,
    withEcho(creationEcho(input.new_string), { tool_output_for_prompt: texts.full, tool_output_for_prompt_concise: texts.concise, absolute_path: realPath }),
    texts,
  );
}

/** Non-empty `old_string`: replace one occurrence, or all with `replace_all`. */
async function replaceInFile(call: Call): Promise<Result> {
  const { input, ctx, names, legacy } = call;
  const replaceAll = input.replace_all === true;
  const read = (await readCurrent(call, false))!;
  if (read.truncated) {
    throw fail(ErrorCode.INVALID_INPUT, "InvalidInput", `Error: ${input.file_path} is too large to edit (${read.stat.size} bytes).`, {
      filePath: input.file_path,
    });
  }
  checkTracker(call, read);
  const original = read.bytes.toString("utf8");
  // A file with any CRLF is matched LF-normalized and written back with CRLF everywhere (as the reference).
  const hasCrlf = original.includes("\r\n");
  const text = hasCrlf ? original.replaceAll("\r\n", "\n") : original;
  let spans = matchIndices(text, input.old_string).map((start) => ({ start, length: input.old_string.length }));
  let normalized = false;
  if (spans.length === 0 && ctx.params.unicode_normalized_fallback) {
    const found = findNormalizedMatches(text, input.old_string);
    if (found.kind === "ambiguous") {
      throw fail(
        ErrorCode.MULTIPLE_MATCHES,
        "MultipleMatchesFound",
        `The string to replace was found via Unicode normalization but the match is ambiguous (partial or overlapping). Use a more specific ${names.oldStringParam} that avoids lines with Unicode typography characters.`,
        { filePath: input.file_path },
      );
    }
    if (found.kind === "matches") {
      if (found.matches.length > 1 && !replaceAll) {
        throw fail(
          ErrorCode.MULTIPLE_MATCHES,
          "MultipleMatchesFound",
          `The string to replace was found multiple times in the file (via Unicode normalization). Use ${names.replaceAllParam} to replace all occurrences, or include more context to only edit one occurrence.`,
          { filePath: input.file_path },
        );
      }
      spans = found.matches;
      normalized = true;
    }
  }
  if (spans.length === 0) throw noMatches(call, text, read.realPath);
  if (spans.length > 1 && !replaceAll) {
    const message = legacyMessages.multipleMatches(names);
    throw fail(ErrorCode.MULTIPLE_MATCHES, legacy ? "InvalidInput" : "MultipleMatchesFound", message, {
      filePath: input.file_path,
      suggestion: `Add surrounding lines to old_string so that it matches once, or set ${names.replaceAllParam} to true.`,
    });
  }
  const replaced = replaceSpans(text, spans, input.new_string);
  const content = hasCrlf ? replaced.text.replaceAll("\r\n", "\n").replaceAll("\n", "\r\n") : replaced.text;
  const realPath = await write(call, content, "write");
  readTracker(ctx.session).recordWrite(realPath, content);
  ctx.notify({ type: "FileWritten", tool_call_id: ctx.callId, absolute_path: realPath, content, previous_content: original, is_new_file: false });
  const texts = updatedTexts(input.file_path, replaced.starts.length);
  return result(
    call,
    withEcho(replacementEcho(replaced.text, input.old_string, input.new_string, replaced.starts), {
      tool_output_for_prompt: texts.full,
      tool_output_for_prompt_concise: texts.concise,
      absolute_path: realPath,
      ...(normalized ? { unicode_normalized: true } : {}),
    }),
    texts,
  );
}

function noMatches(call: Call, text: string, realPath: string): ToolError {
  const { input, ctx, names, legacy } = call;
  const suggestion = `Read the file with ${names.readTool || "a read tool"} and copy the exact text to replace.`;
  if (legacy) {
    return fail(ErrorCode.NO_MATCHES, "InvalidInput", legacyMessages.noMatches(names), { filePath: realPath, suggestion });
  }
  const userEditHint = ctx.params.include_user_edit_hint ? " The user may have changed the file since you last read it." : "";
  const message =
    `The string to replace was not found in the file, use the ${names.readTool} tool to see the correct string.${userEditHint}` +
    nearestMatchHint(text, input.old_string) +
    confusableHint(text, input.old_string, { readTool: names.readTool, oldStringParam: names.oldStringParam, executeTool: names.executeTool });
  return fail(ErrorCode.NO_MATCHES, "NoMatchesFound", message, { filePath: realPath, suggestion, payload: { message, file_path: realPath } });
}
