/**
 * What a search_replace reply echoes of its edit, kept bounded (issue 23.2): `old_string`,
 * `new_string` and the per-replacement `edits.details` while their text stays within the runtime's
 * reply text budget; past it, a summary (sizes, the replacement count and the first line numbers)
 * with `content_omitted`. A 5 MB file created or rewritten used to be echoed two or three times over.
 * prompt_text never depends on this.
 */
import { REPLY_TEXT_BUDGET_BYTES } from "@grok-tools/runtime/helpers";
import { buildEditDetails, lineIndexesOf, type EditDetail } from "./edit.js";

/** Replacements whose line numbers a summary lists; the rest are counted in `edits.omitted`. */
export const SUMMARY_DETAILS_MAX = 1000;

/** The edit part of an `EditsApplied` output. */
export interface EditEcho {
  old_string: string;
  new_string: string;
  edits: { details: EditDetail[]; omitted?: number };
  content_omitted?: true;
  old_string_bytes?: number;
  new_string_bytes?: number;
  replacements?: number;
}

/** A detail reduced to its line numbers. */
function lineOnly(line: number): EditDetail {
  return { old_string: "", old_line: line, new_string: "", new_line: line, context_before: "", context_after: "", line_prefix: "" };
}

function summary(oldString: string, newString: string, lines: readonly number[], replacements: number): EditEcho {
  const listed = lines.slice(0, SUMMARY_DETAILS_MAX);
  return {
    old_string: "",
    new_string: "",
    edits: { details: listed.map(lineOnly), ...(replacements > listed.length ? { omitted: replacements - listed.length } : {}) },
    content_omitted: true,
    old_string_bytes: Buffer.byteLength(oldString, "utf8"),
    new_string_bytes: Buffer.byteLength(newString, "utf8"),
    replacements,
  };
}

/** The echo of replacing `oldString` with `newString` at `starts` (offsets in the new text). */
export function replacementEcho(
  newText: string,
  oldString: string,
  newString: string,
  starts: readonly number[],
  budgetBytes: number = REPLY_TEXT_BUDGET_BYTES,
): EditEcho {
  const echoBytes = Buffer.byteLength(oldString, "utf8") + Buffer.byteLength(newString, "utf8");
  if (echoBytes <= budgetBytes) {
    const details = buildEditDetails(newText, oldString, newString, starts, { maxBytes: budgetBytes - echoBytes });
    if (details.length === starts.length) return { old_string: oldString, new_string: newString, edits: { details } };
  }
  const lines = lineIndexesOf(newText, starts.slice(0, SUMMARY_DETAILS_MAX)).map((index) => index + 1);
  return summary(oldString, newString, lines, starts.length);
}

/** The echo of creating (or overwriting) a file with `content`: one detail at line 1. */
export function creationEcho(content: string, budgetBytes: number = REPLY_TEXT_BUDGET_BYTES): EditEcho {
  if (2 * Buffer.byteLength(content, "utf8") <= budgetBytes) {
    return {
      old_string: "",
      new_string: content,
      edits: { details: [{ old_string: "", old_line: 1, new_string: content, new_line: 1, context_before: "", context_after: "", line_prefix: "" }] },
    };
  }
  return summary("", content, [1], 1);
}
