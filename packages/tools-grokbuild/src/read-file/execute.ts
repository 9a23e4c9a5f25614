/**
 * The read_file logic shared by GrokBuild:read_file and its concise twin (spec §4.2, §13 items 2
 * and 11): resolve, confine, read safely, classify (image, PDF, binary, text), window, cap, track.
 * Failures are ToolErrors whose message is the reference's text (decision D1).
 */
import path from "node:path";
import {
  DEFAULT_MAX_READ_BYTES,
  PATH_LOCKS,
  errnoCode,
  readFileConfined,
  readFileConfinedNow,
  readTracker,
  realpathFast,
  resolveModelPath,
  type ReadResult,
  ioErrorText,
} from "@grok-tools/runtime/fs";
import { ErrorCode, ToolError, type ToolContext } from "@grok-tools/runtime";
import { estimateTokens } from "@grok-tools/runtime/helpers";
import { appendReminder, cursorRuleReminderForRead } from "./cursor-rules.js";
import { imageMimeType, isBinary, isPdf } from "./file-kind.js";
import { compressImageForConversation } from "./image-compress.js";
import { formatFileContent, formatImageContent, formatPdfPageImages } from "./format.js";
import { MAX_PPTX_BYTES, PptxError, extractPptxText, pptxTooLargeMessage } from "./pptx.js";
import { GITIGNORE_POLICY, isGitignored } from "../shared/gitignore.js";
import { displayJoin, isSkillMarkdown, resolveUnicodeFileName } from "../shared/paths.js";
import type { FileContent, ImageContent, ReadFileFailure, ReadFileInput, ReadFileParams, ReadFileSuccess } from "./schema.js";
import { LEGACY_ALLOWS_GITIGNORED_READS, renderLegacyReadError } from "./versions/legacy-0-4-10.js";
import { extractFileContentLines } from "./window.js";
import { MAX_PDF_BYTES, PdfReadError, numberAllLines, readPdfInChild } from "./pdf.js";

/** Token cap of one read (bytes / 4 of the formatted content). */
export const MAX_NUM_TOKENS = 25_000;

/** A successful read: the output and its prompt text. */
export interface ReadFileRun {
  output: ReadFileSuccess;
  promptText: string;
}

/** A failure variant of the reference, as a ToolError with the variant as details. */
function fail(variant: ReadFileFailure, code: ErrorCode, message: string, options: { suggestion?: string; filePath?: string } = {}): ToolError {
  return new ToolError(code, message, { ...options, details: { type: "ReadFile", [variant]: message } });
}

/** Rust's `str::lines().count()`: `\n`-separated lines, a final empty one not counted. */
function rustLineCount(text: string): number {
  if (text === "") return 0;
  const pieces = text.split("\n").length;
  return text.endsWith("\n") ? pieces - 1 : pieces;
}

/**
 * Reads a file for read_file; `legacy` selects the 0.4.10 behaviour. A small text file that needs no
 * await is read and answered at once, without a promise (issue #18: the runtime then answers the call
 * in the same turn); any other read returns a promise. Bad input throws.
 */
export function runReadFile(input: ReadFileInput, ctx: ToolContext<ReadFileParams>, legacy: boolean): ReadFileRun | Promise<ReadFileRun> {
  if (input.limit !== undefined && input.limit < 0) {
    throw ToolError.invalidInput(`invalid value: integer \`${input.limit}\`, expected usize`, {
      suggestion: `Give ${ctx.names.ownParam("limit")} as a non-negative number of lines.`,
    });
  }
  const joined = resolveModelPath(ctx.cwd, input.target_file);
  const display = displayJoin(ctx.cwd, input.target_file);
  const skill = isSkillMarkdown(joined);
  return readTextNow(input, ctx, joined, display, skill, legacy) ?? readThroughLock(input, ctx, legacy, joined, display, skill);
}

/** The usual read: the real path, the gitignore check, the shared lock, images, PDFs, cursor rules. */
async function readThroughLock(
  input: ReadFileInput,
  ctx: ToolContext<ReadFileParams>,
  legacy: boolean,
  joined: string,
  display: string,
  skill: boolean,
): Promise<ReadFileRun> {
  const session = ctx.session;
  let target = joined;
  let canonical = await realpathFast(joined).catch(async (error: unknown) => {
    if (errnoCode(error) !== "ENOENT") return joined;
    const match = await resolveUnicodeFileName(session, joined);
    if (match !== undefined) target = match;
    return match ?? joined;
  });

  if (refusesGitignored(ctx, legacy) && (await isGitignored(session, session.workspace, canonical))) {
    throw fail("FileReadError", ErrorCode.PERMISSION_DENIED, `Error: ${display} is ignored by .gitignore and cannot be read.`, {
      suggestion: "The file is excluded by .gitignore; read a tracked file instead.",
      filePath: display,
    });
  }

  // Shared with other reads, exclusive with this session's edits of the file: a read never sees
  // the file between an edit's read and its replace, and its tracker record is never older than
  // the edit's (issue #13).
  const lockKey = canonical;
  return session.service(PATH_LOCKS).withSharedLock(lockKey, async () => {
    let read: ReadResult;
    try {
      read = await readFileConfined(session, target, { displayPath: display, maxBytes: DEFAULT_MAX_READ_BYTES });
    } catch (error) {
      if (ToolError.is(error)) throw error;
      throw mapReadError(error, { legacy, display, canonical, ctx });
    }
    canonical = read.realPath;
    if (read.truncated) {
      throw ToolError.invalidInput(
        `File is too large to read: ${canonical} (${read.stat.size} bytes; this server reads at most ${DEFAULT_MAX_READ_BYTES} bytes).`,
        {
          suggestion: `Use the '${ctx.names.tool("search") ?? "grep"}' tool to search it, or a shell command to extract the part you need.`,
          filePath: canonical,
        },
      );
    }
    const bytes = read.bytes;
    const tracker = readTracker(session);

    const mime = imageMimeType(bytes);
    if (mime !== undefined) {
      const compressed = await compressImageForConversation(bytes, mime);
      if (!compressed.ok) {
        throw fail("ImageSizeError", ErrorCode.INVALID_INPUT, `Could not embed image in conversation: ${compressed.reason}`, {
          suggestion: "Convert or shrink the image (for example with a shell command), then read the copy.",
          filePath: canonical,
        });
      }
      const image: ImageContent = { data: compressed.data.toString("base64"), mime_type: compressed.mimeType };
      tracker.recordRead(canonical, bytes, read.stat);
      return { output: { type: "ReadFile", ImageContent: image }, promptText: formatImageContent(image) };
    }

    const extension = path.extname(canonical).slice(1).toLowerCase();
    if (isPdf(bytes, extension)) {
      const output = await readPdf(bytes, canonical, input, ctx);
      tracker.recordRead(canonical, bytes, read.stat);
      return output;
    }
    if (extension === "pptx") {
      const output = await readPptx(bytes, canonical, ctx);
      tracker.recordRead(canonical, bytes, read.stat);
      return output;
    }
    if (isBinary(extension, bytes)) {
      throw fail("FileReadError", ErrorCode.INVALID_INPUT, `Cannot read binary file: ${canonical}`, {
        suggestion: "Only text files, images and PDFs can be read; inspect binary files with a shell command.",
        filePath: canonical,
      });
    }

    const text = bytes.toString("utf8");
    let file = textFileContent(text, canonical, input, ctx, skill);
    if (text !== "" && ctx.params.cursor_rules_on_read) {
      const reminder = await cursorRuleReminderForRead(session, session.resources, ctx.cwd, canonical);
      if (reminder !== undefined) {
        const content = appendReminder(file.content, reminder);
        file = { ...file, content, content_concise: content };
      }
    }
    tracker.recordRead(canonical, bytes, read.stat);
    return { output: { type: "ReadFile", FileContent: file }, promptText: formatFileContent(file) };
  });
}

/**
 * The whole read of a small text file made now, without an await (issue #18): no realpath, no
 * promises of the path lock, no thread-pool trips. It is taken only when nothing of the usual path
 * would await (no gitignore check, no cursor rules, a plain text file) and the file's lock is free
 * (checked on the opened file's real path). Since nothing awaits between that check and the
 * tracker's record, the read is ordered with the session's edits exactly as under the shared lock.
 * Undefined in every other case, the usual path then reads (and words any failure).
 */
function readTextNow(
  input: ReadFileInput,
  ctx: ToolContext<ReadFileParams>,
  joined: string,
  display: string,
  skill: boolean,
  legacy: boolean,
): ReadFileRun | undefined {
  const session = ctx.session;
  if (ctx.params.cursor_rules_on_read || refusesGitignored(ctx, legacy)) return undefined;
  const locks = session.service(PATH_LOCKS);
  const read = readFileConfinedNow(session, joined, {
    displayPath: display,
    maxBytes: DEFAULT_MAX_READ_BYTES,
    admit: (realPath) => locks.canShareNow(realPath),
  });
  if (read === undefined || read.truncated) return undefined;
  const bytes = read.bytes;
  const extension = path.extname(read.realPath).slice(1).toLowerCase();
  if (imageMimeType(bytes) !== undefined || isPdf(bytes, extension) || extension === "pptx" || isBinary(extension, bytes)) return undefined;
  const file = textFileContent(bytes.toString("utf8"), read.realPath, input, ctx, skill);
  readTracker(session).recordRead(read.realPath, bytes, read.stat);
  return { output: { type: "ReadFile", FileContent: file }, promptText: formatFileContent(file) };
}

/** Whether this read refuses gitignored files (spec §4.2: the host's filter on and respect_gitignore true; never in 0.4.10). */
function refusesGitignored(ctx: ToolContext<ReadFileParams>, legacy: boolean): boolean {
  if (legacy && LEGACY_ALLOWS_GITIGNORED_READS) return false;
  const policy = ctx.session.service(GITIGNORE_POLICY);
  return policy.respectGitignore === true && policy.filterEnabled;
}

/** A text file's FileContent: the window, numbered, within the token cap (cursor rules not yet added). */
function textFileContent(text: string, canonical: string, input: ReadFileInput, ctx: ToolContext<ReadFileParams>, skill: boolean): FileContent {
  const storedOffset = input.offset !== undefined && input.offset >= 0 ? input.offset : null;
  if (text === "") {
    return {
      content: "",
      absolute_path: canonical,
      offset: storedOffset,
      ...(input.limit === undefined ? {} : { limit: input.limit }),
      raw_output: "",
      total_lines: 0,
    };
  }
  let totalLines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) totalLines++;
  const maxLines = ctx.session.truncation.maxLinesRead;
  const effectiveOffset = skill ? undefined : input.offset;
  const effectiveLimit = skill ? undefined : Math.min(input.limit ?? Number.MAX_SAFE_INTEGER, maxLines);
  const extracted = extractFileContentLines(text, effectiveOffset, effectiveLimit, totalLines);
  const tokens = estimateTokens(extracted.content);
  if (!skill && tokens > MAX_NUM_TOKENS) throw tooLarge(ctx, input, tokens, rustLineCount(extracted.rawOutput) <= 1);
  return {
    content: extracted.content,
    content_concise: extracted.content,
    absolute_path: canonical,
    offset: skill ? null : storedOffset,
    ...(skill || input.limit === undefined ? {} : { limit: input.limit }),
    raw_output: extracted.rawOutput,
    total_lines: totalLines,
    ...(extracted.extractedImages.length === 0 ? {} : { extracted_images: extracted.extractedImages }),
  };
}

/** A .pptx as numbered slide text (reference `handle_pptx` + `raw_text_to_file_content`). */
async function readPptx(bytes: Buffer, canonical: string, ctx: ToolContext<ReadFileParams>): Promise<ReadFileRun> {
  if (bytes.byteLength > MAX_PPTX_BYTES) throw fail("FileReadError", ErrorCode.INVALID_INPUT, pptxTooLargeMessage(bytes.byteLength), { filePath: canonical });
  let text: string;
  try {
    text = extractPptxText(bytes);
  } catch (error) {
    if (error instanceof PptxError) throw fail("FileReadError", ErrorCode.INVALID_INPUT, error.message, { filePath: canonical });
    throw error;
  }
  const numbered = numberAllLines(text);
  let content = numbered.content;
  if (ctx.params.cursor_rules_on_read) {
    const reminder = await cursorRuleReminderForRead(ctx.session, ctx.session.resources, ctx.cwd, canonical);
    if (reminder !== undefined) content = appendReminder(content, reminder);
  }
  const file: FileContent = { content, absolute_path: canonical, offset: null, raw_output: text, total_lines: numbered.totalLines };
  return { output: { type: "ReadFile", FileContent: file }, promptText: formatFileContent(file) };
}

/** The FileTooLarge failure with the calling tool's own parameter names (spec §13 item 17). */
function tooLarge(ctx: ToolContext<ReadFileParams>, input: ReadFileInput, tokens: number, singleLine: boolean): ToolError {
  const grepName = ctx.names.tool("search") ?? "";
  const executeName = ctx.names.tool("execute") ?? "";
  const offsetParam = ctx.names.ownParam("offset");
  const limitParam = ctx.names.ownParam("limit");
  const hint =
    singleLine && executeName !== ""
      ? `\nNote: the requested read is a single very long line, so line-based ${offsetParam}/${limitParam} cannot narrow it further. Use the '${executeName}' tool to extract the parts you need (e.g. \`jq\`, \`python3\`, or \`cut -c\`).`
      : "";
  const message =
    input.offset !== undefined || input.limit !== undefined
      ? `The requested line range (${offsetParam}=${input.offset ?? 1}, ${limitParam}=${input.limit ?? "to end"}) contains ${tokens} tokens, which exceeds the maximum allowed tokens (${MAX_NUM_TOKENS} tokens).\nTry a smaller \`${limitParam}\`, a different starting \`${offsetParam}\`, or use the '${grepName}' tool to search for specific content.${hint}`
      : `File content (${tokens} tokens) exceeds maximum allowed tokens (${MAX_NUM_TOKENS} tokens).\nPlease use ${offsetParam} and ${limitParam} parameters to read a shorter range, or use the '${grepName}' to search for specific content.${hint}`;
  return fail("FileTooLarge", ErrorCode.INVALID_INPUT, message, {
    suggestion: `Read a smaller window with ${offsetParam} and ${limitParam}.`,
  });
}

/** Maps an errno failure of the read to the reference's variant and text. */
export function mapReadError(error: unknown, at: { legacy: boolean; display: string; canonical: string; ctx: ToolContext<ReadFileParams> }): ToolError {
  const code = errnoCode(error);
  const errorCode =
    code === "ENOENT"
      ? ErrorCode.FILE_NOT_FOUND
      : code === "EACCES" || code === "EPERM"
        ? ErrorCode.PERMISSION_DENIED
        : code === "EISDIR"
          ? ErrorCode.INVALID_INPUT
          : ErrorCode.EXECUTION_FAILED;
  const listTool = at.ctx.names.tool("list_dir") ?? at.ctx.names.tool("list");
  if (at.legacy) return fail("FileReadError", errorCode, renderLegacyReadError(at.canonical), { filePath: at.canonical });
  switch (code) {
    case "ENOENT":
      return fail("FileNotFound", errorCode, `Error: ${at.display} does not exist.`, {
        suggestion:
          listTool === undefined
            ? "Check the path for typos; relative paths are resolved against the working directory."
            : `Check the path, or use the '${listTool}' tool to see which files exist.`,
        filePath: at.display,
      });
    case "EISDIR":
      return fail("IsADirectory", errorCode, `Error: ${at.display} is a directory, not a file.`, {
        suggestion:
          listTool === undefined
            ? "Give the path of a file inside that directory."
            : `Use the '${listTool}' tool to list the directory, then read one of its files.`,
        filePath: at.display,
      });
    case "EACCES":
    case "EPERM":
      return fail("PermissionDenied", errorCode, `Permission denied: ${at.display}`, {
        suggestion: "The server's user may not read this file.",
        filePath: at.display,
      });
    default:
      return fail("FileReadError", errorCode, `Failed to read file: ${at.display}, ${ioErrorText(error)}`, { filePath: at.display });
  }
}

/** A PDF as rendered pages (default) or numbered text (`format: "text"`); failures keep the reference's texts. */
async function readPdf(bytes: Buffer, canonical: string, input: ReadFileInput, ctx: ToolContext<ReadFileParams>): Promise<ReadFileRun> {
  const format = input.format ?? undefined;
  if (format !== undefined && format !== "image" && format !== "text") {
    throw fail("FileReadError", ErrorCode.INVALID_INPUT, `Invalid format '${format}'. Supported values: 'image' (default), 'text'.`, { filePath: canonical });
  }
  if (bytes.byteLength > MAX_PDF_BYTES) {
    throw fail(
      "FileReadError",
      ErrorCode.INVALID_INPUT,
      `PDF file is ${(bytes.byteLength / 1_048_576).toFixed(1)} MB, exceeds the ${(MAX_PDF_BYTES / 1_048_576).toFixed(0)} MB limit.`,
      { filePath: canonical },
    );
  }
  try {
    const result = await readPdfInChild(bytes, { format: format ?? "image", pages: input.pages ?? undefined, displayPath: canonical });
    if (result.kind === "text") {
      const numbered = numberAllLines(result.text);
      let content = numbered.content;
      if (ctx.params.cursor_rules_on_read) {
        const reminder = await cursorRuleReminderForRead(ctx.session, ctx.session.resources, ctx.cwd, canonical);
        if (reminder !== undefined) content = appendReminder(content, reminder);
      }
      const file: FileContent = { content, absolute_path: canonical, offset: null, raw_output: result.text, total_lines: numbered.totalLines };
      return { output: { type: "ReadFile", FileContent: file }, promptText: formatFileContent(file) };
    }
    return { output: { type: "ReadFile", PdfPageImages: result.pages }, promptText: formatPdfPageImages(result.pages) };
  } catch (error) {
    if (error instanceof PdfReadError) {
      throw fail("FileReadError", error.kind === "input" ? ErrorCode.INVALID_INPUT : ErrorCode.EXECUTION_FAILED, error.message, { filePath: canonical });
    }
    throw error;
  }
}
