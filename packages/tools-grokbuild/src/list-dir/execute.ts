/**
 * `list_dir` execution: resolve and confine the folder, classify failures (D1 error codes with the
 * reference's texts), then render with the current or the legacy renderer.
 */
import type { Stats } from "node:fs";
import { ErrorCode, ToolError, type ToolContext } from "@grok-tools/runtime";
import { errnoCode, openDirConfined, resolveModelPath, statPathConfined } from "@grok-tools/runtime/fs";
import { ROOT_TRUNCATION_NOTICE_TEMPLATE } from "./notices.js";
import { budgetExpand, buildTree } from "./render.js";
import type { ListDirInput, ListDirOutput, ListDirParams } from "./schema.js";
import { renderLegacy } from "./versions/legacy-0-4-10.js";
import { LEGACY_0_4_10 } from "../shared/versions.js";

/** The header path: the cwd joined with the trimmed target, leading `./` removed (Rust `Path::join`). */
export function displayPathFor(cwd: string, target: string): string {
  let t = target.trim();
  while (t.startsWith("./")) t = t.slice(2);
  if (t === "" || t === ".") return cwd;
  if (t.startsWith("/")) return t;
  return cwd.endsWith("/") ? `${cwd}${t}` : `${cwd}/${t}`;
}

function rootNotice(ctx: ToolContext<ListDirParams>): string {
  return ROOT_TRUNCATION_NOTICE_TEMPLATE.replace("{list}", ctx.names.tool("list") ?? "")
    .replace("{search}", ctx.names.tool("search") ?? "")
    .replace("{execute}", ctx.names.tool("execute") ?? "");
}

/** Runs `list_dir`. */
export async function executeListDir(input: ListDirInput, ctx: ToolContext<ListDirParams>): Promise<{ output: ListDirOutput; promptText: string }> {
  const legacy = ctx.contractVersion === LEGACY_0_4_10;
  const absolute = resolveModelPath(ctx.cwd, input.target_directory);
  const displayPath = displayPathFor(ctx.cwd, input.target_directory);
  // Errors are told apart by shape, not `instanceof` (fs errors may come from another realm).
  let code: string | undefined;
  const info: Stats | undefined = await statPathConfined(ctx.session, absolute, displayPath).catch((error: unknown) => {
    if (ToolError.is(error)) throw error;
    code = errnoCode(error);
    return undefined;
  });
  if (info === undefined || !info.isDirectory()) throw notADirectory(code, info, displayPath, legacy);
  // The folder is checked on its descriptor and listed through it (a swap for a link meanwhile is not followed).
  const dir = await openDirConfined(ctx.session, absolute, { displayPath }).catch((error: unknown) => {
    if (ToolError.is(error)) throw error;
    throw notADirectory(errnoCode(error), undefined, displayPath, legacy);
  });
  let body: string;
  try {
    if (legacy) {
      body = await renderLegacy(dir, ctx.outputLimit, ctx.signal);
    } else {
      const { tree, truncated } = await buildTree(dir, true, ctx.signal);
      body = budgetExpand(tree, ctx.outputLimit, truncated, rootNotice(ctx));
    }
  } finally {
    await dir.close();
  }
  if (ctx.signal.aborted) throw new ToolError(ErrorCode.CANCELLED, "Tool call was cancelled");
  const trimmed = body.trimEnd();
  const content = trimmed === "" && legacy ? `- ${displayPath}/\n  no children found` : `- ${displayPath}/\n${trimmed}`;
  const output: ListDirOutput = { type: "ListDir", Content: { content, absolute_root_path: absolute } };
  return { output, promptText: content };
}

/** The D1 error for a target that is not a listable folder. */
function notADirectory(code: string | undefined, info: Stats | undefined, displayPath: string, legacy: boolean): ToolError {
  const details = (variant: string, message: string) => ({ type: "ListDir", [variant]: message });
  if (legacy) {
    const message = `Error: ${displayPath} is not a valid directory`;
    const errorCode =
      code === "ENOENT" ? ErrorCode.FILE_NOT_FOUND : code === "EACCES" || code === "EPERM" ? ErrorCode.PERMISSION_DENIED : ErrorCode.INVALID_INPUT;
    return new ToolError(errorCode, message, { filePath: displayPath, details: details("Error", message) });
  }
  if (code === "ENOENT") {
    const message = `Error: ${displayPath} does not exist.`;
    return new ToolError(ErrorCode.FILE_NOT_FOUND, message, {
      filePath: displayPath,
      suggestion: "Check the path, or list a parent folder to see what exists.",
      details: details("NotFound", message),
    });
  }
  if (code === "EACCES" || code === "EPERM") {
    const message = `Permission denied: ${displayPath}`;
    return new ToolError(ErrorCode.PERMISSION_DENIED, message, { filePath: displayPath, details: details("PermissionDenied", message) });
  }
  if (info?.isFile()) {
    const message = `Error: ${displayPath} is a file, not a directory.`;
    return new ToolError(ErrorCode.INVALID_INPUT, message, {
      filePath: displayPath,
      suggestion: "Read the file instead, or list its folder.",
      details: details("IsAFile", message),
    });
  }
  const message = `Error: ${displayPath} is not a valid directory.`;
  return new ToolError(ErrorCode.INVALID_INPUT, message, { filePath: displayPath, details: details("NotADirectory", message) });
}
