/**
 * Runs Codex:apply_patch: parse, lock every path the patch names, compute every change in memory
 * (any failure leaves all files as they were), then write each file with the runtime's confined
 * atomic writer, undoing earlier writes if a later one fails (decision D3). Writes and removals go
 * through the checked folder's descriptor (issue #12 item 6). Writes update the read tracker (D2),
 * so a following edit needs no re-read.
 */
import { ErrorCode, ToolError, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import {
  PATH_LOCKS,
  decodeText,
  encodeText,
  errnoCode,
  readFileConfined,
  readTracker,
  removeFileConfined,
  writeFileConfined,
  writeFilesConfined,
  ioErrorText,
  errorCodeOfFileReadFailure,
} from "@grok-tools/runtime/fs";
import { confinedTarget } from "../shared/file-access.js";
import { joinLikeRust } from "../shared/rust-path.js";
import { decodeLossy } from "../shared/rust-text.js";
import { deriveNewContents } from "./apply.js";
import { boundFileResults } from "./bounded-results.js";
import { formatSummary } from "./format.js";
import { parsePatch, type Hunk } from "./parser.js";
import type { ApplyPatchFileResult, ApplyPatchInput, ApplyPatchOutput } from "./schema.js";

/** A change computed in memory, ready to write. */
type FileChange =
  | { kind: "add"; path: string; content: string }
  | { kind: "delete"; path: string; original: Buffer }
  | { kind: "update"; path: string; realPath: string; original: Buffer; newContent: string }
  | { kind: "move"; path: string; realPath: string; dest: string; original: Buffer; newContent: string };

/** The ToolError for a file that could not be read, coded by its cause. */
function readFailure(prefix: string, filePath: string, error: unknown): ToolError {
  if (ToolError.is(error)) return error;
  const code = errnoCode(error);
  const errorCode = errorCodeOfFileReadFailure(error);
  return new ToolError(errorCode, `${prefix}: ${filePath}, ${ioErrorText(error)}`, {
    filePath,
    details: { file_path: filePath, ...(code === undefined ? {} : { errno: code }) },
    ...(errorCode === ErrorCode.FILE_NOT_FOUND ? { suggestion: "Check the path, or use '*** Add File:' to create the file." } : {}),
    cause: error,
  });
}

/** The bytes of a file inside the roots (confinement is checked on the opened descriptor). */
async function readOrFail(ctx: ToolContext, prefix: string, filePath: string): Promise<{ bytes: Buffer; realPath: string }> {
  try {
    const { bytes, realPath } = await readFileConfined(ctx.session, filePath, { maxBytes: Number.MAX_SAFE_INTEGER });
    return { bytes, realPath };
  } catch (error) {
    throw readFailure(prefix, filePath, error);
  }
}

/** Phase 1: every change, computed without writing anything. */
async function computeChanges(ctx: ToolContext, hunks: readonly Hunk[]): Promise<FileChange[]> {
  // Each hunk is computed from the files as they are on disk (nothing is written in this phase),
  // so they are computed together (issue #18: ten sequential reads were a good part of a 10-file
  // patch); the error is the one of the first failing hunk in patch order, as when one by one.
  const settled = await Promise.allSettled(hunks.map((hunk) => computeChange(ctx, hunk)));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<FileChange>).value);
}

async function computeChange(ctx: ToolContext, hunk: Hunk): Promise<FileChange> {
  const resolved = joinLikeRust(ctx.cwd, hunk.path);
  if (hunk.kind === "add") {
    await confinedTarget(ctx.session, resolved);
    return { kind: "add", path: resolved, content: hunk.contents };
  } else if (hunk.kind === "delete") {
    return { kind: "delete", path: resolved, original: (await readOrFail(ctx, "Failed to read file", resolved)).bytes };
  } else {
    const prefix = "Failed to read file to update";
    const { bytes: original, realPath } = await readOrFail(ctx, prefix, resolved);
    const text = decodeLossy(original);
    if (!Buffer.from(text, "utf8").equals(original)) {
      // The reference would rewrite undecodable bytes as U+FFFD; refuse instead of corrupting the file.
      throw new ToolError(ErrorCode.INVALID_INPUT, `${prefix}: ${resolved}, stream did not contain valid UTF-8`, {
        filePath: resolved,
        details: { file_path: resolved },
      });
    }
    const { text: patchable, format } = decodeText(text);
    const newContent = encodeText(deriveNewContents(patchable, resolved, hunk.chunks), format);
    if (hunk.movePath === undefined) {
      return { kind: "update", path: resolved, realPath, original, newContent };
    } else {
      const dest = joinLikeRust(ctx.cwd, hunk.movePath);
      await confinedTarget(ctx.session, dest);
      return { kind: "move", path: resolved, realPath, dest, original, newContent };
    }
  }
}

/** Undo record of one write: the bytes the path held before, or undefined when it did not exist. */
interface Undo {
  path: string;
  previous: Buffer | undefined;
}

async function snapshot(ctx: ToolContext, filePath: string): Promise<Undo> {
  try {
    return { path: filePath, previous: (await readFileConfined(ctx.session, filePath, { maxBytes: Number.MAX_SAFE_INTEGER })).bytes };
  } catch {
    return { path: filePath, previous: undefined };
  }
}

async function undoAll(ctx: ToolContext, undos: readonly Undo[]): Promise<void> {
  for (const undo of [...undos].reverse()) {
    try {
      if (undo.previous === undefined) await removeFileConfined(ctx.session, undo.path);
      else await writeFileConfined(ctx.session, undo.path, undo.previous);
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
  const tracker = readTracker(ctx.session);
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
  const write = async (filePath: string, content: string): Promise<string> => {
    const { realPath } = await writeFileConfined(ctx.session, filePath, content);
    tracker.recordWrite(realPath, content);
    return realPath;
  };
  const updates = changes.filter((c): c is Extract<FileChange, { kind: "update" }> => c.kind === "update");
  if (updates.length > 1 && updates.length === changes.length && new Set(updates.map((c) => c.realPath)).size === updates.length) {
    return writeUpdatesTogether(ctx, updates, notifyWritten);
  }
  try {
    for (const change of changes) {
      if (change.kind === "add") {
        undos.push(await snapshot(ctx, change.path));
        await write(change.path, change.content);
        notifyWritten(change.path, change.content, undefined, true);
        results.push({ path: change.path, action: "added", new_text: change.content });
      } else if (change.kind === "delete") {
        undos.push({ path: change.path, previous: change.original });
        await removeFileConfined(ctx.session, change.path);
        const oldText = decodeLossy(change.original);
        notifyWritten(change.path, "", oldText, false);
        results.push({ path: change.path, action: "deleted", old_text: oldText, new_text: "" });
      } else if (change.kind === "update") {
        undos.push({ path: change.path, previous: change.original });
        await write(change.path, change.newContent);
        const oldText = decodeLossy(change.original);
        notifyWritten(change.path, change.newContent, oldText, false);
        results.push({ path: change.path, action: "modified", old_text: oldText, new_text: change.newContent });
      } else {
        undos.push(await snapshot(ctx, change.dest));
        const destReal = await write(change.dest, change.newContent);
        // A move onto itself must not delete the file it just wrote.
        if (destReal !== change.realPath) {
          undos.push({ path: change.path, previous: change.original });
          await removeFileConfined(ctx.session, change.path);
        }
        const oldText = decodeLossy(change.original);
        notifyWritten(change.dest, change.newContent, undefined, true);
        notifyWritten(change.path, "", oldText, false);
        results.push({ path: change.path, action: "moved", old_text: oldText, new_text: change.newContent, move_to: change.dest });
      }
    }
  } catch (error) {
    await undoAll(ctx, undos);
    throw ToolError.is(error) ? error : writeFailure(error);
  }
  return results;
}

/**
 * Phase 2 of a patch that only updates existing files, each a different real file: the atomic
 * writes run together as one batch (issue #18: each is a temp file, an fsync and a rename, and one
 * after the other they were most of a 10-file patch's time; the batch fsyncs each folder once after
 * its renames instead of once per file). Results and notifications keep the patch's order and are
 * sent once every write succeeded and is durable; if one fails, the files written are restored to
 * their original bytes (the others were never replaced: each write is atomic) and the first
 * failure in order is thrown.
 */
async function writeUpdatesTogether(
  ctx: ToolContext,
  updates: ReadonlyArray<Extract<FileChange, { kind: "update" }>>,
  notifyWritten: (absolutePath: string, content: string, previous: string | undefined, isNew: boolean) => void,
): Promise<ApplyPatchFileResult[]> {
  const tracker = readTracker(ctx.session);
  const settled = await writeFilesConfined(
    ctx.session,
    updates.map((change) => ({ absPath: change.path, content: change.newContent })),
  );
  settled.forEach((outcome, i) => {
    if (outcome.status === "fulfilled") tracker.recordWrite(outcome.value.realPath, updates[i]!.newContent);
  });
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) {
    await undoAll(
      ctx,
      updates.filter((_, i) => settled[i]!.status === "fulfilled").map((change) => ({ path: change.path, previous: change.original })),
    );
    throw ToolError.is(failed.reason) ? failed.reason : writeFailure(failed.reason);
  }
  return updates.map((change) => {
    const oldText = decodeLossy(change.original);
    notifyWritten(change.path, change.newContent, oldText, false);
    return { path: change.path, action: "modified", old_text: oldText, new_text: change.newContent };
  });
}

/** Every path the patch touches, as real paths, sorted (the lock order, so two patches never deadlock). */
async function lockKeys(ctx: ToolContext, hunks: readonly Hunk[]): Promise<string[]> {
  const keys = new Set<string>();
  for (const hunk of hunks) {
    for (const name of hunk.kind === "update" && hunk.movePath !== undefined ? [hunk.path, hunk.movePath] : [hunk.path]) {
      keys.add(await confinedTarget(ctx.session, joinLikeRust(ctx.cwd, name)));
    }
  }
  return [...keys].sort();
}

/** Runs `fn` holding the session's path locks of every key. */
async function withLocks<T>(ctx: ToolContext, keys: readonly string[], fn: () => Promise<T>): Promise<T> {
  const locks = ctx.session.service(PATH_LOCKS);
  const acquire = (index: number): Promise<T> => (index === keys.length ? fn() : locks.withLock(keys[index] as string, () => acquire(index + 1)));
  return acquire(0);
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
  const files = await withLocks(ctx, await lockKeys(ctx, parsed.hunks), async () => writeChanges(ctx, await computeChanges(ctx, parsed.hunks)));
  const summary = formatSummary(files);
  return { output: { type: "ApplyPatch", Success: { files: boundFileResults(files), tool_output_for_prompt: summary } }, promptText: summary };
}
