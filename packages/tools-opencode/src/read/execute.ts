/**
 * Reads a file or a folder for `OpenCode:read` (spec §4.14): folders as a sorted, paged entry list;
 * images and PDFs as image content; text as `N: line` lines capped at 2000 lines / 50 KiB. Every
 * open is confined to the session's roots; a successful read is recorded in the read tracker.
 */
import path from "node:path";
import { ErrorCode, ToolError, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { CheckedDir, errnoCode, openConfined, openDirConfined, readTracker, resolveModelPath, type OpenedFile } from "@grok-tools/runtime/fs";
import { variantError } from "../shared/failure.js";
import { imageMimeType, isBinary } from "../shared/file-kind.js";
import { rustLines } from "../shared/text.js";
import type { ReadInput, ReadOutput } from "./schema.js";

/** Lines (or folder entries) returned when no limit is given. */
export const DEFAULT_READ_LIMIT = 2000;
/** Characters of a line kept before it is cut. */
export const MAX_LINE_LENGTH = 2000;
/** Bytes of text content returned per read. */
export const MAX_BYTES = 50 * 1024;
/** Sibling names offered when a file is missing. */
const MAX_SUGGESTIONS = 3;

const fail = (code: ErrorCode, message: string, filePath?: string) =>
  variantError("ReadFile", "FileReadError", code, message, filePath === undefined ? {} : { filePath });

/** Reads as the reference's opencode read does. */
export async function runRead(input: ReadInput, ctx: ToolContext): Promise<ToolResult<ReadOutput>> {
  const offsetParam = ctx.names.ownParam("offset");
  const offsetGiven = input.offset ?? null;
  const limitGiven = input.limit ?? null;
  if (offsetGiven !== null && offsetGiven < 1) {
    throw fail(ErrorCode.INVALID_INPUT, `${offsetParam} must be >= 1`);
  }
  const resolved = resolveModelPath(ctx.cwd, input.filePath);
  let opened: OpenedFile;
  try {
    opened = await openConfined(ctx.session, resolved, input.filePath);
  } catch (error) {
    if (ToolError.is(error)) throw error;
    if (errnoCode(error) === "ENOENT" || errnoCode(error) === "ENOTDIR") throw await notFound(ctx, resolved);
    throw fail(ErrorCode.EXECUTION_FAILED, `Failed to read file: ${resolved}, ${(error as Error).message}`, resolved);
  }
  const abs = opened.realPath;
  try {
    if (opened.stat.isDirectory()) return await readDirectory(ctx, opened, resolved, offsetGiven, limitGiven, offsetParam);
    const bytes = await opened.handle.readFile();
    readTracker(ctx.session).recordRead(abs, bytes, opened.stat);
    const extension = path.extname(abs).slice(1).toLowerCase();
    const mime = imageMimeType(bytes);
    if (mime !== undefined) return image(bytes, mime, abs);
    if (extension === "pdf") return image(bytes, "application/pdf", abs);
    if (isBinary(extension, bytes)) throw fail(ErrorCode.INVALID_INPUT, `Cannot read binary file: ${abs}`, abs);
    return readText(bytes.toString("utf8"), abs, offsetGiven, limitGiven, offsetParam);
  } finally {
    await opened.handle.close();
  }
}

function image(bytes: Buffer, mimeType: string, abs: string): ToolResult<ReadOutput> {
  const data = bytes.toString("base64");
  return { output: { type: "ReadFile", ImageContent: { data, mime_type: mimeType } }, promptText: `[image ${mimeType}: ${abs}]` };
}

function readText(text: string, abs: string, offsetGiven: number | null, limitGiven: number | null, offsetParam: string): ToolResult<ReadOutput> {
  const lines = rustLines(text);
  const totalLines = lines.length;
  const limit = limitGiven ?? DEFAULT_READ_LIMIT;
  const offset = offsetGiven ?? 1;
  const start = offset - 1;
  if (totalLines > 0 && start >= totalLines) {
    throw fail(ErrorCode.INVALID_INPUT, `${offsetParam} ${offset} is out of range for this file (${totalLines} lines)`, abs);
  }
  const kept: string[] = [];
  let bytes = 0;
  let truncatedByBytes = false;
  let hasMore = false;
  for (let i = start; i < totalLines; i++) {
    if (kept.length >= limit) {
      hasMore = true;
      break;
    }
    const raw = lines[i]!;
    const line = Buffer.byteLength(raw, "utf8") > MAX_LINE_LENGTH ? `${clipBytes(raw, MAX_LINE_LENGTH)}... (line truncated to ${MAX_LINE_LENGTH} chars)` : raw;
    const size = Buffer.byteLength(line, "utf8") + (kept.length === 0 ? 0 : 1);
    if (bytes + size > MAX_BYTES) {
      truncatedByBytes = true;
      hasMore = true;
      break;
    }
    kept.push(line);
    bytes += size;
  }
  const numbered = kept.map((line, i) => `${offset + i}: ${line}`).join("\n");
  const last = kept.length === 0 ? offset : offset + kept.length - 1;
  const footer = truncatedByBytes
    ? `\n\n(Output capped at 50 KB. Showing lines ${offset}-${last}. Use ${offsetParam}=${last + 1} to continue.)`
    : hasMore
      ? `\n\n(Showing lines ${offset}-${last} of ${totalLines}. Use ${offsetParam}=${last + 1} to continue.)`
      : `\n\n(End of file - total ${totalLines} lines)`;
  const content = `<path>${abs}</path>\n<type>file</type>\n<content>${numbered}${footer}\n</content>`;
  return {
    output: {
      type: "ReadFile",
      FileContent: { content, absolute_path: abs, offset: offsetGiven, limit: limitGiven, raw_output: kept.join("\n"), total_lines: totalLines },
    },
    promptText: content,
    truncated: hasMore,
  };
}

/** The longest prefix of at most `maxBytes` UTF-8 bytes, cut back to a character boundary. */
function clipBytes(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, "utf8");
  let end = Math.min(maxBytes, buf.length);
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString("utf8");
}

/**
 * Lists the folder held by `opened` (checked inside the roots on its descriptor). Listed through that
 * descriptor, not reopened by path: the path may meanwhile name another folder, a link out of the
 * roots, or nothing (#19); the caller closes the handle.
 */
async function readDirectory(
  ctx: ToolContext,
  opened: OpenedFile,
  resolved: string,
  offsetGiven: number | null,
  limitGiven: number | null,
  offsetParam: string,
): Promise<ToolResult<ReadOutput>> {
  const abs = opened.realPath;
  const dir = new CheckedDir(opened.handle, abs);
  let entries: Awaited<ReturnType<CheckedDir["entries"]>>;
  try {
    entries = await dir.entries();
  } catch (error) {
    // Removed since it was opened: as missing as a folder that never was.
    if (errnoCode(error) === "ENOENT" || errnoCode(error) === "ENOTDIR") throw await notFound(ctx, resolved);
    throw error;
  }
  const names = await Promise.all(
    entries.map(async (entry) => {
      let isDir = entry.isDirectory();
      // A link counts as a folder when it leads to one inside the roots (opened confined, so a link out reveals nothing).
      if (entry.isSymbolicLink()) isDir = await isDirInsideRoots(ctx, dir.at(entry.name));
      return isDir ? `${entry.name}/` : entry.name;
    }),
  );
  // Case-insensitive order; ties keep the byte order so the listing is stable.
  names.sort((a, b) => {
    const la = a.toLowerCase();
    const lb = b.toLowerCase();
    return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  });
  const total = names.length;
  const limit = limitGiven ?? DEFAULT_READ_LIMIT;
  const offset = offsetGiven ?? 1;
  const sliced = names.slice(offset - 1, offset - 1 + limit);
  const shown = sliced.length;
  const footer =
    offset - 1 + shown < total
      ? `\n(Showing ${shown} of ${total} entries. Use the ${offsetParam} parameter to read beyond entry ${offset + shown})`
      : `\n(${total} entries)`;
  const content = `<path>${abs}</path>\n<type>directory</type>\n<entries>\n${sliced.join("\n")}${footer}\n</entries>`;
  return {
    output: { type: "ReadFile", FileContent: { content, absolute_path: abs, offset: null, limit: null, raw_output: sliced.join("\n"), total_lines: total } },
    promptText: content,
  };
}

async function isDirInsideRoots(ctx: ToolContext, at: string): Promise<boolean> {
  try {
    await (await openDirConfined(ctx.session, at)).close();
    return true;
  } catch {
    return false;
  }
}

/** FILE_NOT_FOUND, with up to three siblings whose names contain (or are contained in) the missing name. */
async function notFound(ctx: ToolContext, resolved: string): Promise<ToolError> {
  const base = path.basename(resolved).toLowerCase();
  const suggestions: string[] = [];
  try {
    const dir = await openDirConfined(ctx.session, path.dirname(resolved));
    try {
      // Sorted, so that the same folder always offers the same names (the reference takes listing order).
      const names = (await dir.entries()).map((entry) => entry.name).sort();
      for (const entryName of names) {
        const name = entryName.toLowerCase();
        if (name.includes(base) || base.includes(name)) suggestions.push(path.join(path.dirname(resolved), entryName));
        if (suggestions.length >= MAX_SUGGESTIONS) break;
      }
    } finally {
      await dir.close();
    }
  } catch {
    // A folder that is missing or outside the roots offers no suggestions (and reveals nothing).
  }
  const message =
    suggestions.length === 0 ? `File not found: ${resolved}` : `File not found: ${resolved}\n\nDid you mean one of these?\n${suggestions.join("\n")}`;
  const error = fail(ErrorCode.FILE_NOT_FOUND, message, resolved);
  return error;
}
