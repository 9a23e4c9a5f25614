/**
 * Unicode typography confusables (smart quotes, dashes, ellipsis, no-break space): detection,
 * normalization to ASCII for comparison, and an offset map from normalized back to original text.
 * The set is deliberately small (the reference's `CONFUSABLE_MAP`). All offsets are UTF-16 indexes;
 * every confusable is a single UTF-16 unit.
 */

/** Confusable character → ASCII replacement. */
export const CONFUSABLE_MAP: ReadonlyMap<string, string> = new Map([
  ["\u201C", '"'],
  ["\u201D", '"'],
  ["\u2018", "'"],
  ["\u2019", "'"],
  ["\u2014", "--"],
  ["\u2013", "-"],
  ["\u2026", "..."],
  ["\u00A0", " "],
]);

const CONFUSABLE_PATTERN = /[\u201C\u201D\u2018\u2019\u2014\u2013\u2026\u00A0]/;

/** Whether `text` contains any confusable. */
export function hasConfusables(text: string): boolean {
  return CONFUSABLE_PATTERN.test(text);
}

/** `text` with every confusable replaced by its ASCII equivalent. */
export function normalizeConfusables(text: string): string {
  return text.replace(/[\u201C\u201D\u2018\u2019\u2014\u2013\u2026\u00A0]/g, (c) => CONFUSABLE_MAP.get(c) ?? c);
}

/** 1-based line numbers of the confusables in `text`, ascending (one entry per character). */
export function confusableLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (CONFUSABLE_MAP.has(c)) lines.push(line);
    if (c === "\n") line += 1;
  }
  return lines;
}

/**
 * The normalized text and, for each of its indexes plus one past the end, the index in `text` it
 * came from (every unit of a replacement maps to its confusable's index).
 */
export function buildOffsetMap(text: string): { normalized: string; offsets: number[] } {
  let normalized = "";
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const replacement = CONFUSABLE_MAP.get(c);
    if (replacement === undefined) {
      normalized += c;
      offsets.push(i);
    } else {
      normalized += replacement;
      for (let k = 0; k < replacement.length; k++) offsets.push(i);
    }
  }
  offsets.push(text.length);
  return { normalized, offsets };
}

/** A match found by normalized comparison, in original-text coordinates. */
export interface NormalizedMatch {
  start: number;
  length: number;
}

/** No match, unambiguous matches, or candidates that are unsafe to apply. */
export type NormalizedMatchResult = { kind: "none" } | { kind: "matches"; matches: NormalizedMatch[] } | { kind: "ambiguous" };

/** Non-overlapping left-to-right indexes of `needle` in `haystack` (`str::match_indices`). */
export function matchIndices(haystack: string, needle: string): number[] {
  const out: number[] = [];
  if (needle === "") return out;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

/**
 * Matches `pattern` against `text` after normalizing both, maps the spans back, and keeps only spans
 * whose original text normalizes to exactly the pattern (so `-` never matches half of an em dash).
 * Rejected candidates or overlapping spans make the result ambiguous.
 */
export function findNormalizedMatches(text: string, pattern: string): NormalizedMatchResult {
  const { normalized, offsets } = buildOffsetMap(text);
  const normalizedPattern = normalizeConfusables(pattern);
  if (normalizedPattern === "") return { kind: "none" };
  const validated: NormalizedMatch[] = [];
  let rejected = false;
  for (const start of matchIndices(normalized, normalizedPattern)) {
    const originalStart = offsets[start]!;
    const originalEnd = offsets[start + normalizedPattern.length]!;
    if (originalEnd <= originalStart || normalizeConfusables(text.slice(originalStart, originalEnd)) !== normalizedPattern) {
      rejected = true;
      continue;
    }
    validated.push({ start: originalStart, length: originalEnd - originalStart });
  }
  if (validated.length === 0) return rejected ? { kind: "ambiguous" } : { kind: "none" };
  for (let i = 1; i < validated.length; i++) {
    const previous = validated[i - 1]!;
    if (previous.start + previous.length > validated[i]!.start) return { kind: "ambiguous" };
  }
  return { kind: "matches", matches: validated };
}
