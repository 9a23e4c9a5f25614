/**
 * Anchor schemes: how each line of a file gets its anchor (`LINE:HASH` or `LINE:HASH:CHUNK`), how
 * an anchor from the model is parsed and checked against the file as it is now, and the bounded
 * search for a line that moved. `content_only` hashes the line alone; `chunk` adds a fingerprint
 * of the fixed-size block of lines around it, so an edit nearby makes the anchor stale.
 */
import { encodeHash, fnv1a32, lineHash, mix } from "./hash.js";

/** Lines searched above and below a stale anchor for the line that moved. */
export const SHIFT_SEARCH_RADIUS = 15;

/** One line's anchor. */
export interface Anchor {
  /** 1-based line number. */
  line: number;
  local: string;
  context: string | undefined;
}

/** An anchor as the model sent it. */
export type ParsedAnchor = Anchor;

/** What checking an anchor against the current lines found. */
export type Validation = "valid" | "stale" | "out_of_range";

/** Where a stale anchor's line went. */
export type Shift = { kind: "found"; line: number } | { kind: "ambiguous"; candidates: number[] } | { kind: "not_found" };

/** An anchor scheme with its parameters. */
export interface AnchorScheme {
  /** The name reported in outputs (`chunk_v1`, `content_only_v1`). */
  readonly name: string;
  readonly hashLen: number;
  readonly hasContext: boolean;
  anchors(lines: readonly string[]): Anchor[];
  validate(anchor: ParsedAnchor, lines: readonly string[]): Validation;
}

/** `LOCAL` or `LOCAL:CONTEXT`: what follows the line number. */
export function anchorSuffix(a: Anchor): string {
  return a.context === undefined ? a.local : `${a.local}:${a.context}`;
}

/** `LINE:SUFFIX`. */
export function renderAnchor(a: Anchor): string {
  return `${a.line}:${anchorSuffix(a)}`;
}

/** The content-only scheme. */
export function contentOnlyScheme(hashLen: number): AnchorScheme {
  return {
    name: "content_only_v1",
    hashLen,
    hasContext: false,
    anchors: (lines) => lines.map((line, i) => ({ line: i + 1, local: encodeHash(lineHash(line), hashLen), context: undefined })),
    validate(anchor, lines) {
      const idx = anchor.line - 1;
      if (idx < 0 || idx >= lines.length) return "out_of_range";
      return anchor.local === encodeHash(lineHash(lines[idx]!), hashLen) ? "valid" : "stale";
    },
  };
}

const CHUNK_SEED = fnv1a32(Buffer.from("chunk"));

/** The chunk scheme: line hash plus a fingerprint of its block of `chunkSize` lines. */
export function chunkScheme(hashLen: number, chunkSize: number): AnchorScheme {
  const fingerprint = (lines: readonly string[], start: number): string => {
    let h = CHUNK_SEED;
    for (let i = start; i < Math.min(start + chunkSize, lines.length); i++) h = mix(h, lineHash(lines[i]!));
    return encodeHash(h, hashLen);
  };
  return {
    name: "chunk_v1",
    hashLen,
    hasContext: true,
    anchors(lines) {
      const chunks: string[] = [];
      for (let start = 0; start < lines.length; start += chunkSize) chunks.push(fingerprint(lines, start));
      return lines.map((line, i) => ({ line: i + 1, local: encodeHash(lineHash(line), hashLen), context: chunks[Math.floor(i / chunkSize)] }));
    },
    validate(anchor, lines) {
      const idx = anchor.line - 1;
      if (idx < 0 || idx >= lines.length) return "out_of_range";
      if (anchor.local !== encodeHash(lineHash(lines[idx]!), hashLen)) return "stale";
      // An anchor without its chunk part would silently weaken the check to content only.
      if (anchor.context === undefined) return "stale";
      return anchor.context === fingerprint(lines, Math.floor(idx / chunkSize) * chunkSize) ? "valid" : "stale";
    },
  };
}

const LOWER = /^[a-z]+$/;

/** `22:abc` or `22:abc:rst` (line ≥ 1, hashes lowercase letters), else undefined. */
export function parseAnchor(text: string): ParsedAnchor | undefined {
  const [lineText, local, ...rest] = text.split(":");
  if (lineText === undefined || local === undefined || lineText === "" || local === "") return undefined;
  if (!/^\d+$/.test(lineText)) return undefined;
  const line = Number(lineText);
  if (!Number.isSafeInteger(line) || line === 0 || !LOWER.test(local)) return undefined;
  const context = rest.length === 0 ? undefined : rest.join(":");
  if (context !== undefined && !LOWER.test(context)) return undefined;
  return { line, local, context };
}

/** The lines near a stale anchor that hold its content (and, with a context, validate there). */
export function findShifted(scheme: AnchorScheme, anchor: ParsedAnchor, lines: readonly string[], radius = SHIFT_SEARCH_RADIUS): Shift {
  const orig = anchor.line - 1;
  const candidates: number[] = [];
  for (let idx = Math.max(orig - radius, 0); idx < Math.min(orig + radius + 1, lines.length); idx++) {
    if (idx === orig) continue;
    const local = encodeHash(lineHash(lines[idx]!), scheme.hashLen);
    if (local !== anchor.local) continue;
    if (anchor.context !== undefined && scheme.validate({ line: idx + 1, local, context: anchor.context }, lines) !== "valid") continue;
    candidates.push(idx + 1);
  }
  if (candidates.length === 0) return { kind: "not_found" };
  if (candidates.length === 1) return { kind: "found", line: candidates[0]! };
  return { kind: "ambiguous", candidates };
}

/**
 * A hash-only anchor (`abc:rst`, the line number dropped) recovered when exactly one line of the
 * file has that suffix.
 */
export function recoverBySuffix(scheme: AnchorScheme, suffix: string, lines: readonly string[]): ParsedAnchor | undefined {
  const colon = suffix.indexOf(":");
  const matches = scheme
    .anchors(lines)
    .filter((a) =>
      a.context !== undefined && colon !== -1
        ? a.local === suffix.slice(0, colon) && a.context === suffix.slice(colon + 1)
        : a.context === undefined && colon === -1 && a.local === suffix,
    );
  return matches.length === 1 ? matches[0] : undefined;
}
