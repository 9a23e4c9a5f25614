/**
 * Finds a run of lines in a file, trying four tiers of strictness in turn: exact, ignoring trailing
 * whitespace, ignoring surrounding whitespace, and finally with typographic punctuation and odd spaces
 * folded to ASCII. Each tier scans every start position before the next tier is tried.
 */
import { trimEndRust, trimRust } from "../shared/rust-text.js";

const DASHES = /[\u2010-\u2015\u2212]/g;
const SINGLE_QUOTES = /[\u2018-\u201B]/g;
const DOUBLE_QUOTES = /[\u201C-\u201F]/g;
const SPACES = /[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g;

/** Tier 4's normal form: trimmed, with Unicode dashes, quotes and spaces replaced by ASCII. */
export function normalisePunctuation(text: string): string {
  return trimRust(text).replace(DASHES, "-").replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"').replace(SPACES, " ");
}

type LineEquality = (fileLine: string, patternLine: string) => boolean;

const TIERS: readonly LineEquality[] = [
  (a, b) => a === b,
  (a, b) => trimEndRust(a) === trimEndRust(b),
  (a, b) => trimRust(a) === trimRust(b),
  (a, b) => normalisePunctuation(a) === normalisePunctuation(b),
];

/**
 * Index of the first place at or after `start` where `pattern` occurs in `lines`, or undefined.
 * With `eof`, only the position that puts the pattern at the very end of the file is tried.
 * An empty pattern matches at `start`.
 */
export function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, eof: boolean): number | undefined {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return undefined;
  const searchStart = eof ? lines.length - pattern.length : start;
  const lastStart = lines.length - pattern.length;
  for (const equal of TIERS) {
    for (let i = searchStart; i <= lastStart; i += 1) {
      let ok = true;
      for (let p = 0; p < pattern.length; p += 1) {
        if (!equal(lines[i + p] as string, pattern[p] as string)) {
          ok = false;
          break;
        }
      }
      if (ok) return i;
    }
  }
  return undefined;
}
