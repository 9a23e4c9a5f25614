/**
 * The pure part of hashline_edit: every operation's anchors checked against the file as it is
 * (a stale one gets fresh anchors and, when the line moved nearby, the anchor to retry with), the
 * batch checked for overlaps, then applied bottom-up; the result is the new text and a snippet
 * with fresh anchors. All or nothing: any failure leaves the file as it was.
 */
import { anchoredLine } from "../shared/format.js";
import { contentLines, splitLines } from "../shared/lines.js";
import { anchorSuffix, findShifted, parseAnchor, recoverBySuffix, type AnchorScheme } from "../shared/scheme.js";
import { formatAnchored } from "../shared/format.js";
import type { HashlineOp } from "./schema.js";

/** Lines of context around an edit in the success snippet. */
export const SNIPPET_CONTEXT_LINES = 3;
/** Lines of fresh anchors around a stale one. */
export const RECOVERY_CONTEXT_LINES = 5;
/** Longest single snippet; beyond it each edited region gets its own, with gap markers. */
export const MAX_CONTIGUOUS_SNIPPET_LINES = 80;
/** Replacements up to this many lines carry no warning; up to {@link MEDIUM_RANGE_LINES} a note. */
const SMALL_RANGE_LINES = 5;
const MEDIUM_RANGE_LINES = 20;

/** Why a batch was refused. */
export type EditFailureKind = "anchor_stale" | "ambiguous_anchor" | "anchor_not_found" | "overlapping_edits" | "invalid_input";

/** A refused batch: the message with its fresh anchors, for the model. */
export interface EditFailure {
  kind: EditFailureKind;
  message: string;
  requestedAnchor?: string;
  shiftedAnchor?: string;
}

/** One applied region, for the output's details. */
export interface RegionDetail {
  oldLine: number;
  oldText: string;
  newLine: number;
  newText: string;
}

/** An accepted batch. */
export interface EditSuccess {
  newText: string;
  snippet: string;
  snippetStartLine: number;
  warnings: string[];
  details: RegionDetail[];
}

interface Resolved {
  index: number;
  start: number;
  end: number;
  lines: string[];
}

class Refused extends Error {
  constructor(readonly failure: EditFailure) {
    super(failure.message);
  }
}

function formatHint(scheme: AnchorScheme): { format: string; example: string } {
  const len = Math.min(Math.max(scheme.hashLen, 1), 4);
  return scheme.hasContext
    ? { format: "LINE:HASH1:HASH2", example: `22:${"abcd".slice(0, len)}:${"rstu".slice(0, len)}` }
    : { format: "LINE:HASH", example: `22:${"abcd".slice(0, len)}` };
}

/** The first line (1-based) of `content` that starts with an anchor copied from a read, if any. */
function anchorPrefixLine(content: string): number | undefined {
  const lines = contentLines(content);
  for (const [i, line] of lines.entries()) {
    const s = line.trimStart();
    for (const sep of ["\u2192", "->"]) {
      const at = s.indexOf(sep);
      if (at === -1) continue;
      const before = s.slice(0, at);
      if (Buffer.byteLength(before) <= 25 && before.includes(":") && !before.includes(" ")) return i + 1;
    }
  }
  return undefined;
}

function refuseAnchorContent(op: string, content: string, lineNum: number): never {
  const lines = contentLines(content);
  const from = Math.max(lineNum - 2, 0);
  const to = Math.min(lineNum + 1, lines.length);
  const context = lines
    .slice(from, to)
    .map((l, i) => `${from + i + 1 === lineNum ? ">>>" : "   "} line ${from + i + 1}: ${l}`)
    .join("\n");
  throw new Refused({
    kind: "invalid_input",
    message: `${op} content contains anchor prefixes (e.g. "22:abc:rst\u2192") copied from hashline_read output. The first offending line is line ${lineNum}. Strip the anchor prefixes and the \u2192 separator from every line, keeping only the actual file content, then retry.\n\n${context}`,
  });
}

/** The 0-based line an anchor names, checked against `lines`. */
function resolveAnchor(raw: string, lines: readonly string[], scheme: AnchorScheme): number {
  // Models copy the read line whole (`22:abc:rst→code`): keep what precedes the separator.
  const arrow = raw.indexOf("\u2192");
  const ascii = raw.indexOf("->");
  const text = arrow !== -1 ? raw.slice(0, arrow) : ascii !== -1 ? raw.slice(0, ascii) : raw;
  const parsed = parseAnchor(text) ?? recoverBySuffix(scheme, text, lines);
  if (parsed === undefined) {
    const { format, example } = formatHint(scheme);
    throw new Refused({
      kind: "invalid_input",
      message: `Malformed anchor: "${text}". Expected format: "${format}" (e.g. "${example}").`,
      requestedAnchor: text,
    });
  }
  const validation = scheme.validate(parsed, lines);
  if (validation === "valid") return parsed.line - 1;
  if (validation === "out_of_range") {
    throw new Refused({ kind: "anchor_not_found", message: `Line ${parsed.line} is out of range (file has ${lines.length} lines).`, requestedAnchor: text });
  }
  const anchors = scheme.anchors(lines);
  const from = Math.max(parsed.line - 1 - RECOVERY_CONTEXT_LINES, 0);
  const to = Math.min(parsed.line + RECOVERY_CONTEXT_LINES, lines.length);
  const context = anchors
    .slice(from, to)
    .map((a, i) => anchoredLine(a, lines[from + i]!))
    .join("\n");
  const shift = findShifted(scheme, parsed, lines);
  let message: string;
  let kind: EditFailureKind = "anchor_stale";
  let shiftedAnchor: string | undefined;
  if (shift.kind === "found") {
    shiftedAnchor = `${shift.line}:${anchorSuffix(anchors[shift.line - 1]!)}`;
    message = `Anchor stale at line ${parsed.line}. Content appears to have shifted to line ${shift.line}. Retry with anchor "${shiftedAnchor}".`;
  } else if (shift.kind === "ambiguous") {
    kind = "ambiguous_anchor";
    message = `Anchor stale at line ${parsed.line}. Multiple candidates at lines [${shift.candidates.join(", ")}]. Use the fresh anchors from the context below to retry your edit.`;
  } else {
    message = `Anchor stale at line ${parsed.line}. Use the fresh anchors from the context below to retry your edit.`;
  }
  message += `\n\nFresh anchors around line ${from + 1} — use these to retry your edit:\n${context}`;
  if (shiftedAnchor !== undefined) message += `\n\nSuggested anchor: ${shiftedAnchor}`;
  throw new Refused({ kind, message, requestedAnchor: text, ...(shiftedAnchor === undefined ? {} : { shiftedAnchor }) });
}

function resolveOp(op: HashlineOp, index: number, lines: readonly string[], scheme: AnchorScheme): Resolved {
  if (op.op === "write") {
    throw new Refused({
      kind: "invalid_input",
      message:
        "Write op must be the only operation in a batch. Either use write alone (to replace the entire file) or use replace/insert_after ops without write.",
    });
  }
  if (op.op === "replace") {
    const start = resolveAnchor(op.anchor, lines, scheme);
    let end = start + 1;
    if (op.end_anchor !== undefined && op.end_anchor !== null) {
      const last = resolveAnchor(op.end_anchor, lines, scheme);
      if (last < start)
        throw new Refused({
          kind: "invalid_input",
          message: `end_anchor line ${last + 1} is before start anchor line ${start + 1}.`,
          requestedAnchor: op.end_anchor,
        });
      end = last + 1;
    }
    const prefixed = anchorPrefixLine(op.content);
    if (prefixed !== undefined) refuseAnchorContent("replace", op.content, prefixed);
    return { index, start, end, lines: op.content === "" ? [] : contentLines(op.content) };
  }
  let at: number;
  if (op.anchor === "0:") at = 0;
  else if (op.anchor === "EOF") {
    // Before the synthetic empty line that a final newline gives.
    at = lines.length > 1 && lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
  } else at = resolveAnchor(op.anchor, lines, scheme) + 1;
  const prefixed = anchorPrefixLine(op.content);
  if (prefixed !== undefined) refuseAnchorContent("insert_after", op.content, prefixed);
  return { index, start: at, end: at, lines: op.content === "" ? [""] : contentLines(op.content) };
}

function describe(r: Resolved): string {
  return r.start === r.end ? `edit #${r.index + 1} (insertion at line ${r.start + 1})` : `edit #${r.index + 1} (lines ${r.start + 1}-${r.end})`;
}

function checkOverlaps(ops: readonly Resolved[]): void {
  const ranges = ops.filter((o) => o.start !== o.end).sort((a, b) => a.start - b.start);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i - 1]!.end > ranges[i]!.start)
      throw new Refused({ kind: "overlapping_edits", message: `Overlapping edits: ${describe(ranges[i - 1]!)} and ${describe(ranges[i]!)}.` });
  }
  for (const ins of ops.filter((o) => o.start === o.end)) {
    const hit = ranges.find((r) => r.start <= ins.start && ins.start < r.end);
    if (hit) throw new Refused({ kind: "overlapping_edits", message: `Overlapping edits: ${describe(hit)} and ${describe(ins)}.` });
  }
}

function rangeWarning(start: number, end: number): string | undefined {
  const count = end - start;
  if (count > MEDIUM_RANGE_LINES) return `Caution: large range edit (${count} lines, lines ${start + 1}-${end}). Verify the target range is correct.`;
  if (count > SMALL_RANGE_LINES) return `Note: medium range edit (${count} lines, lines ${start + 1}-${end}).`;
  return undefined;
}

function snippetOf(newText: string, regions: readonly [number, number][], total: number, scheme: AnchorScheme): string {
  if (regions.length === 0) return "";
  const globalStart = Math.max(regions[0]![0] - SNIPPET_CONTEXT_LINES, 0);
  const globalEnd = Math.min(regions.at(-1)![1] + SNIPPET_CONTEXT_LINES, total);
  if (globalEnd - globalStart <= MAX_CONTIGUOUS_SNIPPET_LINES) return formatAnchored(newText, scheme, globalStart + 1, globalEnd - globalStart).text;
  const merged: [number, number][] = [];
  for (const [start, end] of regions) {
    const from = Math.max(start - SNIPPET_CONTEXT_LINES, 0);
    const to = Math.min(end + SNIPPET_CONTEXT_LINES, total);
    const last = merged.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  const parts: string[] = [];
  let prevEnd = 0;
  for (const [i, [start, end]] of merged.entries()) {
    if (i > 0) parts.push(`... ${start - prevEnd} lines not shown ...`);
    else if (start > 0) parts.push(`... ${start} lines not shown ...`);
    parts.push(formatAnchored(newText, scheme, start + 1, end - start).text);
    prevEnd = end;
  }
  if (prevEnd < total) parts.push(`... ${total - prevEnd} lines not shown ...`);
  return parts.join("\n");
}

/** Applies a batch to `content`, or says why not. */
export function applyEdits(
  content: string,
  ops: readonly HashlineOp[],
  scheme: AnchorScheme,
): { ok: true; value: EditSuccess } | { ok: false; failure: EditFailure } {
  try {
    return { ok: true, value: apply(content, ops, scheme) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, failure: error.failure };
    throw error;
  }
}

function apply(content: string, ops: readonly HashlineOp[], scheme: AnchorScheme): EditSuccess {
  const lines = splitLines(content);
  const only = ops[0];
  if (ops.length === 1 && only !== undefined && only.op === "write") {
    const prefixed = anchorPrefixLine(only.content);
    if (prefixed !== undefined) refuseAnchorContent("write", only.content, prefixed);
    const total = splitLines(only.content).length;
    const snippet = formatAnchored(only.content, scheme, 1, Math.min(SNIPPET_CONTEXT_LINES * 2, total)).text;
    return { newText: only.content, snippet, snippetStartLine: 1, warnings: [], details: [] };
  }
  const resolved: Resolved[] = [];
  for (const [index, op] of ops.entries()) {
    try {
      resolved.push(resolveOp(op, index, lines, scheme));
    } catch (error) {
      if (error instanceof Refused && ops.length > 1) {
        const f = error.failure;
        throw new Refused({
          ...f,
          message: `Edit ${index + 1}/${ops.length} (${op.op}): ${f.message}\n\nThis batch contained ${ops.length} edits. Because this anchor failed validation, none of the edits were applied. Retry all ${ops.length} edits with fresh anchors, not just the failed one.`,
        });
      }
      throw error;
    }
  }
  try {
    checkOverlaps(resolved);
  } catch (error) {
    if (error instanceof Refused && ops.length > 1) {
      throw new Refused({
        ...error.failure,
        message: `${error.failure.message}\n\nThis batch contained ${ops.length} edits. Because of the overlap, none were applied. Fix the overlapping ranges and retry all edits.`,
      });
    }
    throw error;
  }
  const warnings = resolved.map((r) => rangeWarning(r.start, r.end)).filter((w): w is string => w !== undefined);
  // Top-down to track where each region lands; same-position ops keep request order.
  const topDown = [...resolved].sort((a, b) => a.start - b.start || a.index - b.index);
  const regions: [number, number][] = [];
  const details: RegionDetail[] = [];
  let shift = 0;
  for (const op of topDown) {
    const start = op.start + shift;
    regions.push([start, start + op.lines.length]);
    details.push({ oldLine: op.start + 1, oldText: lines.slice(op.start, op.end).join("\n"), newLine: start + 1, newText: op.lines.join("\n") });
    shift += op.lines.length - (op.end - op.start);
  }
  const result = [...lines];
  for (const op of [...topDown].reverse()) result.splice(op.start, op.end - op.start, ...op.lines);
  const newText = result.join("\n");
  const total = splitLines(newText).length;
  regions.sort((a, b) => a[0] - b[0]);
  return {
    newText,
    snippet: snippetOf(newText, regions, total, scheme),
    snippetStartLine: Math.max(regions[0]![0] - SNIPPET_CONTEXT_LINES, 0) + 1,
    warnings,
    details,
  };
}
