/**
 * Runs Codex:read_file: validates the arguments, reads the file (confined to the session's roots),
 * and renders a slice or an indentation block.
 */
import path from "node:path";
import { PATH_LOCKS, errnoCode, readFileConfined, readTracker, resolveForCreate, ioErrorText, errorCodeOfFileReadFailure } from "@grok-tools/runtime/fs";
import { ToolError, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { decodeLossy } from "../shared/rust-text.js";
import { formatReadPrompt } from "./format.js";
import { readBlock } from "./indentation.js";
import { collectLines } from "./lines.js";
import type { CodexReadFileInput, CodexReadFileOutput } from "./schema.js";
import { readSlice } from "./slice.js";

/** Lines read when the caller gives no limit. */
export const DEFAULT_LIMIT_LINES = 2000;

/** The ToolError for a file that could not be read. */
export function readError(filePath: string, error: unknown): ToolError {
  if (ToolError.is(error)) return error;
  const code = errnoCode(error);
  const errorCode = errorCodeOfFileReadFailure(error);
  return new ToolError(errorCode, `Failed to read file: ${filePath}, ${ioErrorText(error)}`, {
    filePath,
    details: { file_path: filePath, ...(code === undefined ? {} : { errno: code }) },
    cause: error,
  });
}

/** Reads a file in the Codex `L{n}: ` format. */
export async function executeReadFile(input: CodexReadFileInput, ctx: ToolContext): Promise<ToolResult<CodexReadFileOutput>> {
  const offset = input.offset ?? 1;
  const limit = input.limit ?? DEFAULT_LIMIT_LINES;
  if (offset === 0) throw ToolError.invalidInput("offset must be a 1-indexed line number");
  if (limit === 0) throw ToolError.invalidInput("limit must be greater than zero");
  const filePath = input.file_path;
  if (!path.isAbsolute(filePath)) throw ToolError.invalidInput("file_path must be an absolute path", { filePath });

  let bytes: Buffer;
  // Shared with other reads, exclusive with this session's edits of the file, so that the read
  // and its tracker record never interleave with an edit (issue #13).
  const lockKey = await resolveForCreate(filePath).catch(() => filePath);
  try {
    bytes = await ctx.session.service(PATH_LOCKS).withSharedLock(lockKey, async () => {
      // Confinement is checked on the opened descriptor; FIFOs and devices are refused.
      const read = await readFileConfined(ctx.session, filePath, { maxBytes: Number.MAX_SAFE_INTEGER });
      readTracker(ctx.session).recordRead(read.realPath, read.bytes, read.stat);
      return read.bytes;
    });
  } catch (error) {
    throw readError(filePath, error);
  }
  const lines = collectLines(bytes);
  const collected =
    input.mode === "indentation"
      ? readBlock(lines, offset, limit, {
          anchorLine: input.indentation?.anchor_line ?? undefined,
          maxLevels: input.indentation?.max_levels ?? 0,
          includeSiblings: input.indentation?.include_siblings ?? false,
          includeHeader: input.indentation?.include_header ?? true,
          maxLines: input.indentation?.max_lines ?? undefined,
        })
      : readSlice(lines, offset, limit);
  const content = collected.join("\n");
  let newlines = 0;
  for (const byte of bytes) if (byte === 0x0a) newlines += 1;
  const totalLines = newlines + (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? 1 : 0);
  return {
    output: {
      type: "ReadFile",
      FileContent: { content, absolute_path: filePath, offset, limit, raw_output: decodeLossy(bytes), total_lines: totalLines },
    },
    promptText: formatReadPrompt(content, totalLines, offset),
  };
}
