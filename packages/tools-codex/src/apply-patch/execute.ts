/**
 * Runs Codex:apply_patch: parse, then compute every change in memory (any failure leaves all files as
 * they were), then write each file atomically, undoing earlier writes if a later one fails (D3).
 */
import { readFile, unlink } from "node:fs/promises";
import path from "node:path";
import { ErrorCode, ToolError, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { assertInsideRoots, realPathOf, writeThroughAtomic } from "../shared/file-access.js";
import { errnoCode, fsErrorText } from "../shared/io-error.js";
import { decodeLossy } from "../shared/rust-text.js";
import { deriveNewContents } from "./apply.js";
import { formatSummary } from "./format.js";
import { fromPatchable, toPatchable } from "./line-endings.js";
import { parsePatch, type Hunk } from "./parser.js";
import type { ApplyPatchFileResult, ApplyPatchInput, ApplyPatchOutput } from "./schema.js";

/** A change computed in memory, ready to write. */
type FileChange =
  | { kind: "add"; path: string; content: string }
  | { kind: "delete"; path: string; original: Buffer }
  | { kind: "update"; path: string; original: Buffer; newContent: string }
  | { kind: "move"; path: string; dest: string; original: Buffer; newContent: string };

/** Joins a patch path onto the working directory like Rust's `Path::join` (an absolute path wins; no normalizing). */
export function joinOntoCwd(cwd: string, patchPath: string): string {
  if (path.isAbsolute(patchPath)) return patchPath;
  return cwd.endsWith("/") ? `${cwd}${patchPath}` : `${cwd}/${patchPath}`;
}

/** The ToolError for a file that could not be read, coded by its cause. */
function readFailure(prefix: string, filePath: string, error: unknown): ToolError {
  const code = errnoCode(error);
  const errorCode =
    code === "ENOENT" || code === "ENOTDIR"
      ? ErrorCode.FILE_NOT_FOUND
      : code === "EACCES" || code === "EPERM"
        ? ErrorCode.PERMISSION_DENIED
        : code === "EISDIR"
          ? ErrorCode.INVALID_INPUT
          : ErrorCode.EXECUTION_FAILED;
  return new ToolError(errorCode, `${prefix}: ${filePath}, ${fsErrorText(error)}`, {
    filePath,
    details: { file_path: filePath, ...(code === undefined ? {} : { errno: code }) },
    ...(errorCode === ErrorCode.FILE_NOT_FOUND ? { suggestion: "Check the path, or use '*** Add File:' to create the file." } : {}),
    cause: error,
  });
}

async function readOrFail(prefix: string, filePath: string): Promise<Buffer> {
  try {
    return await readFile(filePath);
  } catch (error) {
    throw readFailure(prefix, filePath, error);
  }
}

/** Phase 1: every change, computed without writing anything. */
async function computeChanges(ctx: ToolContext, hunks: readonly Hunk[]): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  for (const hunk of hunks) {
    const resolved = joinOntoCwd(ctx.cwd, hunk.path);
    await assertInsideRoots(ctx.session, resolved);
    if (hunk.kind === "add") {
      changes.push({ kind: "add", path: resolved, content: hunk.contents });
    } else if (hunk.kind === "delete") {
      changes.push({ kind: "delete", path: resolved, original: await readOrFail("Failed to read file", resolved) });
    } else {
      const prefix = "Failed to read file to update";
      const original = await readOrFail(prefix, resolved);
      const text = decodeLossy(original);
      if (!Buffer.from(text, "utf8").equals(original)) {
        // The reference would rewrite undecodable bytes as U+FFFD; refuse instead of corrupting the file.
        throw new ToolError(ErrorCode.INVALID_INPUT, `${prefix}: ${resolved}, stream did not contain valid UTF-8`, {
          filePath: resolved,
          details: { file_path: resolved },
        });
      }
      const { text: patchable, layout } = toPatchable(text);
      const newContent = fromPatchable(deriveNewContents(patchable, resolved, hunk.chunks), layout);
      if (hunk.movePath === undefined) {
        changes.push({ kind: "update", path: resolved, original, newContent });
      } else {
        const dest = joinOntoCwd(ctx.cwd, hunk.movePath);
        await assertInsideRoots(ctx.session, dest);
        changes.push({ kind: "move", path: resolved, dest, original, newContent });
      }
    }
  }
  return changes;
}

/** Undo record of one write: the bytes the path held before, or undefined when it did not exist. */
interface Undo {
  path: string;
  previous: Buffer | undefined;
}

async function snapshot(filePath: string): Promise<Undo> {
  const previous = await readFile(filePath).catch(() => undefined);
  return { path: filePath, previous };
}

async function undoAll(undos: readonly Undo[]): Promise<void> {
  for (const undo of [...undos].reverse()) {
    try {
      if (undo.previous === undefined) await unlink(undo.path);
      else await writeThroughAtomic(undo.path, undo.previous);
    } catch {
      // Best effort: the original write error is what the caller needs to see.
    }
  }
}

function writeFailure(error: unknown): ToolError {
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError(ErrorCode.EXECUTION_FAILED, message, { cause: error, details: { errno: errnoCode(error) } });
}

/** Phase 2: writes every change; on a failure, restores what was already written and throws. */
async function writeChanges(ctx: ToolContext, changes: readonly FileChange[]): Promise<ApplyPatchFileResult[]> {
  const undos: Undo[] = [];
  const results: ApplyPatchFileResult[] = [];
  const notifyWritten = (absolutePath: string, content: string, previous: string | undefined, isNew: boolean): void => {
    ctx.notify({
      type: "FileWritten",
      tool_call_id: ctx.callId,
      absolute_path: absolutePath,
      content,
      ...(previous === undefined ? {} : { previous_content: previous }),
      is_new_file: isNew,
    });
  };
  try {
    for (const change of changes) {
      if (change.kind === "add") {
        undos.push(await snapshot(change.path));
        await writeThroughAtomic(change.path, change.content);
        notifyWritten(change.path, change.content, undefined, true);
        results.push({ path: change.path, action: "added", new_text: change.content });
      } else if (change.kind === "delete") {
        undos.push({ path: change.path, previous: change.original });
        await unlink(change.path);
        const oldText = decodeLossy(change.original);
        notifyWritten(change.path, "", oldText, false);
        results.push({ path: change.path, action: "deleted", old_text: oldText, new_text: "" });
      } else if (change.kind === "update") {
        undos.push({ path: change.path, previous: change.original });
        await writeThroughAtomic(change.path, change.newContent);
        const oldText = decodeLossy(change.original);
        notifyWritten(change.path, change.newContent, oldText, false);
        results.push({ path: change.path, action: "modified", old_text: oldText, new_text: change.newContent });
      } else {
        undos.push(await snapshot(change.dest));
        await writeThroughAtomic(change.dest, change.newContent);
        const samePlace = (await realPathOf(change.dest)) === (await realPathOf(change.path));
        if (!samePlace) {
          undos.push({ path: change.path, previous: change.original });
          await unlink(change.path);
        }
        const oldText = decodeLossy(change.original);
        notifyWritten(change.dest, change.newContent, undefined, true);
        notifyWritten(change.path, "", oldText, false);
        results.push({ path: change.path, action: "moved", old_text: oldText, new_text: change.newContent, move_to: change.dest });
      }
    }
  } catch (error) {
    await undoAll(undos);
    throw ToolError.is(error) ? error : writeFailure(error);
  }
  return results;
}

/** Applies a patch; every failure is a ToolError and leaves the files as they were. */
export async function executeApplyPatch(input: ApplyPatchInput, ctx: ToolContext): Promise<ToolResult<ApplyPatchOutput>> {
  const parsed = parsePatch(input.patch);
  if (parsed.hunks.length === 0) {
    throw new ToolError(ErrorCode.INVALID_INPUT, "No files were modified.", {
      details: { kind: "empty_patch" },
      suggestion: "Add at least one '*** Add File:', '*** Delete File:' or '*** Update File:' section.",
    });
  }
  const changes = await computeChanges(ctx, parsed.hunks);
  const files = await writeChanges(ctx, changes);
  const summary = formatSummary(files);
  return { output: { type: "ApplyPatch", Success: { files, tool_output_for_prompt: summary } }, promptText: summary };
}
