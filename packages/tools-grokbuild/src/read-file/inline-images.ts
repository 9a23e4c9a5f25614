/**
 * Takes inline base64 images (`data:image/png;base64,...`) out of a text line so the model gets a
 * placeholder instead of a wall of base64, and strips inline PDF data URIs (reference `base64_images.rs`).
 */
import type { ExtractedImage } from "./schema.js";

/** Text left where an image was taken out. */
export const IMAGE_CONTENT_PLACEHOLDER = "[image content will be provided separately]";
const MIN_PAYLOAD_LEN = 1024;
const MAX_PAYLOAD_LEN = 10 * 1024 * 1024;
const GROSS_PAYLOAD_PRE_CAP = MAX_PAYLOAD_LEN * 2;
const MAX_IMAGES = 5;

const IMAGE_PREFIX_RE = /(?:[^a-zA-Z0-9]|^)(data:(image\/(?:png|jpeg|gif|webp|bmp|tiff))(?:;[^\s,;]{1,120})*;base64,)/gi;
const PDF_PREFIX_RE = /(?:[^a-zA-Z0-9]|^)(data:application\/pdf(?:;[^\s,;]{1,120})*;base64,)/gi;

/** One prefix match: where the `data:` starts, where the payload starts, and the image MIME type. */
interface PrefixMatch {
  start: number;
  end: number;
  mime: string;
}

function matches(re: RegExp, text: string): PrefixMatch[] {
  const out: PrefixMatch[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const prefix = m[1] ?? "";
    const start = m.index + m[0].length - prefix.length;
    out.push({ start, end: start + prefix.length, mime: m[2] ?? "" });
    // Matches must not overlap: continue after the consumed text, as Rust's captures_iter does.
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

const isBase64Byte = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2b || c === 0x2f || c === 0x3d;

function scanPayloadEnd(text: string, start: number, endCap: number): number {
  const cap = Math.min(endCap, text.length);
  let i = start;
  while (i < cap && isBase64Byte(text.charCodeAt(i))) i++;
  if (i > start && text[i - 1] === "=") return i;
  for (;;) {
    let p = i;
    if (p < cap && text[p] === "\r") p++;
    if (!(p < cap && text[p] === "\n")) break;
    p++;
    while (p < cap && (text[p] === " " || text[p] === "\t")) p++;
    const chunkStart = p;
    while (p < cap && isBase64Byte(text.charCodeAt(p))) p++;
    if (p === chunkStart) break;
    i = p;
    if (text[p - 1] === "=") break;
  }
  return i;
}

function allPrefixPositions(text: string): number[] {
  const positions = [...matches(IMAGE_PREFIX_RE, text), ...matches(PDF_PREFIX_RE, text)].map((m) => m.start);
  return [...new Set(positions)].sort((a, b) => a - b);
}

const stripWhitespace = (s: string): string => s.replace(/[\t\n\f\r ]/g, "");

function stripPdfDataUris(text: string): string | undefined {
  if (!text.toLowerCase().includes("data:application/pdf")) return undefined;
  const positions = allPrefixPositions(text);
  let result = "";
  let lastEnd = 0;
  let matched = false;
  for (const m of matches(PDF_PREFIX_RE, text)) {
    const next = positions.find((p) => p > m.start) ?? text.length;
    const payloadEnd = scanPayloadEnd(text, m.end, next);
    const span = text.slice(m.end, payloadEnd);
    const sizeKb = Math.floor(Math.floor(((span.length > GROSS_PAYLOAD_PRE_CAP ? span : stripWhitespace(span)).length * 3) / 4) / 1024);
    matched = true;
    result += text.slice(lastEnd, m.start) + `[PDF attachment removed \u2014 ${sizeKb} KB]`;
    lastEnd = payloadEnd;
  }
  return matched ? result + text.slice(lastEnd) : undefined;
}

function scanAndExtract(s: string): { text: string; images: ExtractedImage[] } | undefined {
  if (!s.includes("data:image")) return undefined;
  const positions = allPrefixPositions(s);
  let result = "";
  const images: ExtractedImage[] = [];
  let lastEnd = 0;
  for (const m of matches(IMAGE_PREFIX_RE, s)) {
    const next = positions.find((p) => p > m.start) ?? s.length;
    const payloadEnd = scanPayloadEnd(s, m.end, next);
    const span = s.slice(m.end, payloadEnd);
    if (span.length > GROSS_PAYLOAD_PRE_CAP) {
      result += s.slice(lastEnd, m.start) + "[large image removed]";
      lastEnd = payloadEnd;
      continue;
    }
    const cleaned = stripWhitespace(span);
    const payloadLen = cleaned.length - (cleaned.length % 4);
    if (payloadLen < MIN_PAYLOAD_LEN) continue;
    result += s.slice(lastEnd, m.start);
    if (payloadLen > MAX_PAYLOAD_LEN) result += "[large image removed]";
    else if (images.length >= MAX_IMAGES) result += "[additional image omitted]";
    else {
      images.push({ data: cleaned.slice(0, payloadLen), mime_type: m.mime });
      result += IMAGE_CONTENT_PLACEHOLDER;
    }
    lastEnd = payloadEnd;
  }
  if (lastEnd === 0) return undefined;
  return { text: result + s.slice(lastEnd), images };
}

/** The line with inline images replaced, or undefined when it has none (the fast path). */
export function tryExtractBase64Images(text: string): { text: string; images: ExtractedImage[] } | undefined {
  const afterPdf = stripPdfDataUris(text);
  const extracted = scanAndExtract(afterPdf ?? text);
  if (extracted) return extracted;
  return afterPdf === undefined ? undefined : { text: afterPdf, images: [] };
}
