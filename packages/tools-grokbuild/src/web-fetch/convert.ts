/**
 * Content handling of web_fetch: content-type classes (HTML, PDF, image, video, binary), HTML to
 * Markdown (turndown, with scripts, styles and page chrome removed) and base64 data-URI stripping.
 */
import { createRequire } from "node:module";
import type TurndownService from "turndown";

/** turndown (and the DOM it brings) is required on the first conversion, not at start-up (issue #18). */
const loadTurndown = (): typeof TurndownService => createRequire(import.meta.url)("turndown") as typeof TurndownService;

/** Tags dropped with their content before conversion. */
const SKIPPED_TAGS = ["script", "style", "noscript", "svg", "iframe", "object", "embed", "head", "title"] as const;
/** Page chrome removed before conversion (the reference's selectors). */
const CHROME_TAGS = new Set(["NAV", "HEADER", "FOOTER"]);
const CHROME_ATTRIBUTE_PARTS = ["cookie", "sidebar", "ad-", "advert"] as const;

function mimeOf(contentType: string): string {
  return (contentType.split(";")[0] ?? contentType).trim().toLowerCase();
}

/** `text/html` or XHTML. */
export function isHtml(contentType: string): boolean {
  return contentType.includes("text/html") || contentType.includes("application/xhtml");
}

/** `application/pdf`. */
export function isPdf(contentType: string): boolean {
  return contentType.includes("application/pdf");
}

/** Images, except SVG (scriptable, so never saved as an image). */
export function isImage(contentType: string): boolean {
  const mime = mimeOf(contentType);
  return mime.startsWith("image/") && mime !== "image/svg+xml";
}

/** `video/*`. */
export function isVideo(contentType: string): boolean {
  return mimeOf(contentType).startsWith("video/");
}

const TEXT_LIKE_APPLICATION_TYPES = new Set([
  "application/json",
  "application/xml",
  "application/javascript",
  "application/ecmascript",
  "application/x-javascript",
  "application/xhtml+xml",
  "application/rss+xml",
  "application/atom+xml",
  "application/soap+xml",
  "application/xslt+xml",
  "application/mathml+xml",
  "application/svg+xml",
  "application/x-www-form-urlencoded",
  "application/graphql",
  "application/ld+json",
  "application/schema+json",
  "application/vnd.api+json",
  "application/x-yaml",
  "application/yaml",
  "application/toml",
]);

/** Binary types that would turn into garbage as text. */
export function isBinaryContentType(contentType: string): boolean {
  const mime = mimeOf(contentType);
  if (mime.startsWith("text/")) return false;
  return !TEXT_LIKE_APPLICATION_TYPES.has(mime);
}

/** Whether the first bytes match the claimed media type (unknown subtypes pass). */
export function mediaMagicMatches(contentType: string, body: Buffer): boolean {
  const startsWith = (bytes: number[]): boolean => bytes.every((b, i) => body[i] === b);
  const ascii = (from: number, to: number): string => body.subarray(from, to).toString("latin1");
  switch (mimeOf(contentType)) {
    case "image/png":
      return startsWith([0x89, 0x50, 0x4e, 0x47]);
    case "image/jpeg":
      return startsWith([0xff, 0xd8, 0xff]);
    case "image/gif":
      return ascii(0, 4) === "GIF8";
    case "image/webp":
      return body.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP";
    case "video/mp4":
      return body.length >= 8 && ascii(4, 8) === "ftyp";
    case "video/webm":
      return startsWith([0x1a, 0x45, 0xdf, 0xa3]);
    default:
      return true;
  }
}

const MEDIA_EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/bmp": "bmp",
  "image/tiff": "tiff",
  "video/mp4": "mp4",
  "video/webm": "webm",
  "video/quicktime": "mov",
  "video/x-msvideo": "avi",
};

/** File extension of a media type (`bin` when unknown). */
export function mediaExtension(contentType: string): string {
  return MEDIA_EXTENSIONS[mimeOf(contentType)] ?? "bin";
}

/** The part of a DOM element the chrome filter reads (the package builds without the DOM lib). */
interface ElementLike {
  nodeName: string;
  getAttribute?(name: string): string | null;
}

function isChrome(node: ElementLike): boolean {
  if (CHROME_TAGS.has(node.nodeName)) return true;
  const cls = node.getAttribute?.("class") ?? "";
  const id = node.getAttribute?.("id") ?? "";
  return CHROME_ATTRIBUTE_PARTS.some((part) => cls.includes(part) || id.includes(part));
}

/** A converter configured like the reference's (ATX headings, fenced code, noise removed). */
export function createHtmlConverter(): TurndownService {
  const Turndown = loadTurndown();
  const service = new Turndown({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "*" });
  service.remove([...SKIPPED_TAGS]);
  service.remove((node) => {
    const element = node as unknown as ElementLike;
    return element.nodeName !== "HTML" && element.nodeName !== "BODY" && isChrome(element);
  });
  return service;
}

/** HTML to Markdown; on a converter failure the HTML is returned as it is, like the reference. */
export function htmlToMarkdown(converter: TurndownService, html: string): string {
  try {
    return converter.turndown(html);
  } catch {
    return html;
  }
}

const MIN_BASE64_PAYLOAD_CHARS = 4;
const MAX_DATA_URI_HEADER_CHARS = 120;
const BASE64_CHAR = /[A-Za-z0-9+/=]/;

/** Replaces `data:<mime>;base64,<payload>` with `[base64 <mime> data removed]` (token bloat). */
export function stripBase64DataUris(content: string): string {
  if (!content.includes("data:")) return content;
  let result = "";
  let lastEnd = 0;
  let searchFrom = 0;
  for (;;) {
    const start = content.indexOf("data:", searchFrom);
    if (start < 0) break;
    searchFrom = start + 5;
    // "metadata:" is not a data URI.
    if (start > 0 && /[A-Za-z0-9]/.test(content[start - 1] ?? "")) continue;
    const comma = content.indexOf(",", start);
    if (comma < 0) continue;
    const header = content.slice(start + 5, comma);
    if (header.length > MAX_DATA_URI_HEADER_CHARS || /\s/.test(header)) continue;
    const [first = "", ...params] = header.split(";");
    if (!params.some((p) => p.toLowerCase() === "base64")) continue;
    let end = comma + 1;
    while (end < content.length && BASE64_CHAR.test(content[end] ?? "")) end++;
    if (end - (comma + 1) < MIN_BASE64_PAYLOAD_CHARS) continue;
    result += `${content.slice(lastEnd, start)}[base64 ${first === "" ? "unknown" : first} data removed]`;
    lastEnd = end;
    searchFrom = end;
  }
  return lastEnd === 0 ? content : result + content.slice(lastEnd);
}
