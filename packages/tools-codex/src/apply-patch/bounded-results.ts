/**
 * Keeps an apply_patch reply bounded (issue 23.2): file results carry their full old and new texts
 * while the reply's running total stays within the runtime's reply text budget; past it, a result
 * carries sizes and, when it fits what is left, a unified diff instead. A 5 MB file's patch used to
 * answer with 10.6 MB, which a default client refused after the file was written. Normal-size
 * patches are untouched, and prompt_text never depends on this.
 */
import { FILE_HEADERS_ONLY, createTwoFilesPatch } from "diff";
import { REPLY_TEXT_BUDGET_BYTES } from "@grok-tools/runtime/helpers";
import type { ApplyPatchFileResult } from "./schema.js";

/** Context lines of a summary diff. */
const DIFF_CONTEXT_LINES = 3;
/** Edits (lines) the diff may need before it gives up: a rewritten file gets no diff, only sizes. */
const DIFF_MAX_EDIT_LINES = 2000;

/** The inline text of one result, in UTF-8 bytes. */
function inlineBytes(result: ApplyPatchFileResult): number {
  return Buffer.byteLength(result.old_text ?? "", "utf8") + Buffer.byteLength(result.new_text ?? "", "utf8");
}

/** A unified diff of one result, or undefined when it is too costly to compute (many changed lines). */
function diffOf(result: ApplyPatchFileResult): string | undefined {
  const from = result.path;
  const to = result.move_to ?? result.path;
  return createTwoFilesPatch(from, to, result.old_text ?? "", result.new_text ?? "", undefined, undefined, {
    context: DIFF_CONTEXT_LINES,
    maxEditLength: DIFF_MAX_EDIT_LINES,
    headerOptions: FILE_HEADERS_ONLY,
  });
}

/** The summary form of a result: sizes, and the diff when it fits `room` bytes. */
function summarize(result: ApplyPatchFileResult, room: number): ApplyPatchFileResult {
  const { old_text: oldText, new_text: newText, ...rest } = result;
  const summary: ApplyPatchFileResult = {
    ...rest,
    content_omitted: true,
    old_bytes: Buffer.byteLength(oldText ?? "", "utf8"),
    new_bytes: Buffer.byteLength(newText ?? "", "utf8"),
  };
  // A diff is at least as large as the changed lines; skip the work when even those could not fit.
  if (room > 0 && Math.abs(summary.new_bytes! - summary.old_bytes!) <= room) {
    const diff = diffOf(result);
    if (diff !== undefined && Buffer.byteLength(diff, "utf8") <= room) summary.diff = diff;
  }
  return summary;
}

/** The results as the reply carries them, within `budgetBytes` of file text. */
export function boundFileResults(results: readonly ApplyPatchFileResult[], budgetBytes: number = REPLY_TEXT_BUDGET_BYTES): ApplyPatchFileResult[] {
  let used = 0;
  return results.map((result) => {
    const size = inlineBytes(result);
    if (used + size <= budgetBytes) {
      used += size;
      return result;
    }
    const summary = summarize(result, budgetBytes - used);
    used += Buffer.byteLength(summary.diff ?? "", "utf8");
    return summary;
  });
}
