/** The anchored line format shared by read, edit snippets and stale-anchor context: `N:ANCHOR→content`. */
import { anchorSuffix, type Anchor, type AnchorScheme } from "./scheme.js";
import { splitLines } from "./lines.js";

/** `LINE:SUFFIX→content`. */
export function anchoredLine(a: Anchor, content: string): string {
  return `${a.line}:${anchorSuffix(a)}→${content}`;
}

/** Lines [offset, offset+limit) of `content` (1-based offset) with their anchors, joined by `\n`. */
export function formatAnchored(
  content: string,
  scheme: AnchorScheme,
  offset = 1,
  limit = Number.MAX_SAFE_INTEGER,
): { text: string; raw: string; shown: number } {
  const lines = splitLines(content);
  const anchors = scheme.anchors(lines);
  const out: string[] = [];
  const raw: string[] = [];
  for (let i = Math.max(offset - 1, 0); i < lines.length && out.length < limit; i++) {
    out.push(anchoredLine(anchors[i]!, lines[i]!));
    raw.push(lines[i]!);
  }
  return { text: out.join("\n"), raw: raw.join("\n"), shown: out.length };
}
