/**
 * PDF reading for read_file (reference `read_file/pdf.rs`): page-range parsing, text extraction
 * (`format: "text"`) and page rendering to JPEG (`format: "image"`, the default) with pdf.js.
 * Rendering needs the optional `@napi-rs/canvas`; without it the image format fails clearly.
 */
import { createRequire } from "node:module";
import path from "node:path";
import type { PdfPageImages } from "./schema.js";

/** Largest PDF read (bytes). */
export const MAX_PDF_BYTES = 50 * 1024 * 1024;
/** PDFs with more pages than this need `pages`. */
export const PDF_AUTO_READ_THRESHOLD = 10;
/** Most pages per call. */
export const PDF_MAX_PAGES_PER_READ = 20;
/** Rendering resolution and JPEG quality (as the reference). */
const PDF_RENDER_DPI = 150;
const PDF_RENDER_JPEG_QUALITY = 85;
/** Time budget of one PDF extraction. */
export const PDF_PROCESS_TIMEOUT_MS = 60_000;

/** A PDF failure with the reference's model-facing text; `kind` picks the error code. */
export class PdfReadError extends Error {
  constructor(
    message: string,
    readonly kind: "input" | "execution",
  ) {
    super(message);
    this.name = "PdfReadError";
  }
}

/** Zero-based page indices of a spec like `1-5`, `3`, `10-`, `1,3-4` (sorted, de-duplicated). */
export function parsePageRange(spec: string, pageCount: number): number[] {
  const pages: number[] = [];
  const parseNumber = (text: string): number => {
    const t = text.trim();
    if (!/^\+?\d+$/.test(t)) throw new PdfReadError(`invalid page number: '${t}'`, "input");
    return Number(t);
  };
  for (const raw of spec.split(",")) {
    const part = raw.trim();
    if (part === "") continue;
    const dash = part.indexOf("-");
    if (dash !== -1) {
      const start = parseNumber(part.slice(0, dash));
      const endText = part.slice(dash + 1);
      const end = endText.trim() === "" ? pageCount : parseNumber(endText);
      if (start < 1 || start > pageCount) throw new PdfReadError(`page ${start} out of range (document has ${pageCount} pages)`, "input");
      if (start > end) throw new PdfReadError(`invalid page range: ${start}-${end} (start must be ≤ end)`, "input");
      for (let p = start; p <= Math.min(end, pageCount); p++) pages.push(p - 1);
    } else {
      const p = parseNumber(part);
      if (p < 1 || p > pageCount) throw new PdfReadError(`page ${p} out of range (document has ${pageCount} pages)`, "input");
      pages.push(p - 1);
    }
  }
  const unique = [...new Set(pages)].sort((a, b) => a - b);
  if (unique.length > PDF_MAX_PAGES_PER_READ) throw new PdfReadError(`requested ${unique.length} pages, maximum is ${PDF_MAX_PAGES_PER_READ} per call`, "input");
  if (unique.length === 0) throw new PdfReadError("no pages specified", "input");
  return unique;
}

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
type PdfDocument = Awaited<ReturnType<PdfJs["getDocument"]>["promise"]>;

let pdfjsModule: Promise<PdfJs> | undefined;
function loadPdfJs(): Promise<PdfJs> {
  pdfjsModule ??= import("pdfjs-dist/legacy/build/pdf.mjs");
  return pdfjsModule;
}

function standardFontDataUrl(): string {
  const require = createRequire(import.meta.url);
  return `${path.join(path.dirname(require.resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;
}

async function openDocument(bytes: Uint8Array): Promise<PdfDocument> {
  const pdfjs = await loadPdfJs();
  let doc: PdfDocument;
  try {
    // A copy: pdf.js transfers (detaches) the buffer it is given.
    doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, standardFontDataUrl: standardFontDataUrl(), verbosity: 0 }).promise;
  } catch (error) {
    throw new PdfReadError(`Failed to open PDF: ${error instanceof Error ? error.message : String(error)}`, "execution");
  }
  if (doc.numPages === 0) {
    await doc.destroy();
    throw new PdfReadError("PDF has no pages", "execution");
  }
  return doc;
}

function resolvePages(pageCount: number, spec: string | undefined): number[] {
  if (spec !== undefined) return parsePageRange(spec, pageCount);
  if (pageCount > PDF_AUTO_READ_THRESHOLD) {
    throw new PdfReadError(
      `PDF has ${pageCount} pages which exceeds the ${PDF_AUTO_READ_THRESHOLD} page auto-read limit. Use the \`pages\` parameter to specify which pages to read (e.g. pages="1-5"). Maximum ${PDF_MAX_PAGES_PER_READ} pages per call.`,
      "input",
    );
  }
  return Array.from({ length: pageCount }, (_, i) => i);
}

/** The text of the chosen pages: `--- Page N ---` headers, pages separated by a newline. */
export async function extractPdfText(bytes: Uint8Array, pagesSpec: string | undefined): Promise<string> {
  const doc = await openDocument(bytes);
  try {
    const indices = resolvePages(doc.numPages, pagesSpec);
    let text = "";
    for (const [i, index] of indices.entries()) {
      if (i > 0) text += "\n";
      text += `--- Page ${index + 1} ---\n`;
      try {
        const page = await doc.getPage(index + 1);
        const content = await page.getTextContent();
        for (const item of content.items) {
          if (!("str" in item)) continue;
          text += item.str;
          if (item.hasEOL) text += "\n";
        }
      } catch (error) {
        text += `[Failed to extract text from page ${index + 1}: ${error instanceof Error ? error.message : String(error)}]\n`;
      }
    }
    return text;
  } finally {
    await doc.destroy();
  }
}

/** Renders the chosen pages as JPEG at 150 DPI. */
export async function renderPdfPages(bytes: Uint8Array, pagesSpec: string | undefined): Promise<PdfPageImages> {
  const doc = await openDocument(bytes);
  try {
    const indices = resolvePages(doc.numPages, pagesSpec);
    let canvasModule: typeof import("@napi-rs/canvas");
    try {
      canvasModule = await import("@napi-rs/canvas");
    } catch {
      throw new PdfReadError("Rendering PDF pages is not available on this server (the optional @napi-rs/canvas package is missing). Use format: 'text' instead.", "execution");
    }
    const pages: PdfPageImages["pages"] = [];
    for (const index of indices) {
      try {
        const page = await doc.getPage(index + 1);
        const viewport = page.getViewport({ scale: PDF_RENDER_DPI / 72 });
        const canvas = canvasModule.createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
        const context = canvas.getContext("2d");
        context.fillStyle = "#ffffff";
        context.fillRect(0, 0, canvas.width, canvas.height);
        await page.render({ canvasContext: context as unknown as Parameters<typeof page.render>[0]["canvasContext"], viewport }).promise;
        const jpeg = await canvas.encode("jpeg", PDF_RENDER_JPEG_QUALITY);
        pages.push({ data: jpeg.toString("base64"), mime_type: "image/jpeg", page_number: index + 1 });
      } catch (error) {
        throw new PdfReadError(`Failed to render page ${index + 1}: ${error instanceof Error ? error.message : String(error)}`, "execution");
      }
    }
    return { pages, total_pages: doc.numPages, file_size: bytes.byteLength };
  } finally {
    await doc.destroy();
  }
}

/** Numbers every line of extracted text (`N→line`), as the reference's `raw_text_to_file_content`. */
export function numberAllLines(text: string): { content: string; totalLines: number } {
  const lines = text.split("\n");
  return { content: lines.map((line, i) => `${i + 1}→${line}`).join("\n"), totalLines: lines.length };
}
