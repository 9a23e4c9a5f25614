/**
 * Runs Codex:list_dir: validates the arguments, confines the folder to the session's roots, lists a page.
 */
import path from "node:path";
import { ErrorCode, ToolError, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { errnoCode, openDirConfined, rustIoErrorText } from "@grok-tools/runtime/fs";
import { confinedTarget } from "../shared/file-access.js";
import type { CodexListDirInput, CodexListDirOutput } from "./schema.js";
import { listDirPage } from "./walk.js";

/** Entries per page when the caller gives no limit. */
export const DEFAULT_LIMIT_ENTRIES = 25;
/** Levels listed when the caller gives no depth. */
export const DEFAULT_DEPTH_LEVELS = 2;

/** Lists a folder, breadth first, one page at a time. */
export async function executeListDir(input: CodexListDirInput, ctx: ToolContext): Promise<ToolResult<CodexListDirOutput>> {
  const offset = input.offset ?? 1;
  const limit = input.limit ?? DEFAULT_LIMIT_ENTRIES;
  const depth = input.depth ?? DEFAULT_DEPTH_LEVELS;
  if (offset === 0) throw ToolError.invalidInput("offset must be a 1-indexed entry number");
  if (limit === 0) throw ToolError.invalidInput("limit must be greater than zero");
  if (depth === 0) throw ToolError.invalidInput("depth must be greater than zero");
  const dirPath = input.dir_path;
  if (!path.isAbsolute(dirPath)) throw ToolError.invalidInput("dir_path must be an absolute path", { filePath: dirPath });
  await confinedTarget(ctx.session, dirPath);

  let page: Awaited<ReturnType<typeof listDirPage>>;
  try {
    // Checked on the folder's descriptor, then listed through it (issue #12 item 6).
    const root = await openDirConfined(ctx.session, dirPath);
    try {
      page = await listDirPage(root, offset, limit, depth);
    } finally {
      await root.close();
    }
  } catch (error) {
    if (ToolError.is(error)) throw error;
    const code = errnoCode(error);
    const errorCode =
      code === "ENOENT"
        ? ErrorCode.FILE_NOT_FOUND
        : code === "EACCES" || code === "EPERM"
          ? ErrorCode.PERMISSION_DENIED
          : code === "ENOTDIR"
            ? ErrorCode.INVALID_INPUT
            : ErrorCode.EXECUTION_FAILED;
    throw new ToolError(errorCode, `Failed to read directory: ${rustIoErrorText(error)}`, {
      filePath: dirPath,
      details: { dir_path: dirPath, ...(code === undefined ? {} : { errno: code }) },
      cause: error,
    });
  }
  if ("error" in page) {
    throw ToolError.invalidInput("offset exceeds directory entry count", { details: { offset, entry_count: page.total } });
  }
  const content = [`Absolute path: ${dirPath}`, ...page.lines].join("\n");
  return { output: { type: "ListDir", Content: { content, absolute_root_path: dirPath } }, promptText: content };
}
