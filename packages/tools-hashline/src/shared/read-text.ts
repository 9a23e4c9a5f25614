/** Reads a text file confined to the session's roots for the hashline tools, with their failure texts. */
import { ErrorCode, ToolError, type ToolContext } from "@grok-tools/runtime";
import { errnoCode, ioErrorText, readFileConfined } from "@grok-tools/runtime/fs";
import { variantError } from "./failure.js";

/** A file read for anchoring. */
export interface TextFile {
  text: string;
  bytes: Buffer;
  realPath: string;
  stat: { mtimeMs: number };
}

/** Reads `absolute` (shown as `display`); FILE_NOT_FOUND / ReadFile errors as the read tool reports them. */
export async function readTextFile(
  ctx: ToolContext,
  absolute: string,
  display: string,
  outputType: string,
  notFoundVariant: string,
): Promise<TextFile | undefined> {
  try {
    const read = await readFileConfined(ctx.session, absolute, { displayPath: display });
    return { text: read.bytes.toString("utf8"), bytes: read.bytes, realPath: read.realPath, stat: read.stat };
  } catch (error) {
    if (ToolError.is(error)) throw error;
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    if (code === "EISDIR") throw variantError(outputType, "InvalidInput", ErrorCode.INVALID_INPUT, "File path is a directory", { filePath: display });
    const errorCode = code === "EACCES" || code === "EPERM" ? ErrorCode.PERMISSION_DENIED : ErrorCode.EXECUTION_FAILED;
    throw variantError(
      outputType,
      notFoundVariant === "FileNotFound" ? "InvalidInput" : "FileReadError",
      errorCode,
      `Failed to read file: ${display}, ${ioErrorText(error)}`,
      {
        filePath: display,
      },
    );
  }
}
