/**
 * PDF reading for read_file (reference `read_file/pdf.rs`): page-range parsing, text extraction
 * (`format: "text"`) and page rendering to JPEG (`format: "image"`, the default) with pdf.js in a
 * child process. Rendering needs the optional `@napi-rs/canvas`; without it the image format fails clearly.
 */
import { spawn } from "node:child_process";
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
  if (unique.length > PDF_MAX_PAGES_PER_READ)
    throw new PdfReadError(`requested ${unique.length} pages, maximum is ${PDF_MAX_PAGES_PER_READ} per call`, "input");
  if (unique.length === 0) throw new PdfReadError("no pages specified", "input");
  return unique;
}

/** Zero-based indices to read: the `pages` spec, or every page of a short document. */
export function resolvePages(pageCount: number, spec: string | undefined): number[] {
  if (spec !== undefined) return parsePageRange(spec, pageCount);
  if (pageCount > PDF_AUTO_READ_THRESHOLD) {
    throw new PdfReadError(
      `PDF has ${pageCount} pages which exceeds the ${PDF_AUTO_READ_THRESHOLD} page auto-read limit. Use the \`pages\` parameter to specify which pages to read (e.g. pages="1-5"). Maximum ${PDF_MAX_PAGES_PER_READ} pages per call.`,
      "input",
    );
  }
  return Array.from({ length: pageCount }, (_, i) => i);
}

/** The pdf.js side, run by a child `node`: bytes on stdin, commands and replies over IPC. */
const PDF_CHILD_SCRIPT = String.raw`
const [pdfjsPath, fontsUrl, canvasPath] = process.argv.slice(1);
const { pathToFileURL } = await import("node:url");
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const message = (e) => (e && e.message ? e.message : String(e));
const pdfjs = await import(pathToFileURL(pdfjsPath).href);
let doc;
try {
  doc = await pdfjs.getDocument({ data: new Uint8Array(Buffer.concat(chunks)), isEvalSupported: false, standardFontDataUrl: fontsUrl, verbosity: 0 }).promise;
} catch (e) {
  process.send({ type: "openFailed", message: message(e) });
  process.exit(0);
}
process.send({ type: "opened", numPages: doc.numPages });
process.on("message", async (command) => {
  if (command.op === "text") {
    let text = "";
    for (const [i, index] of command.indices.entries()) {
      if (i > 0) text += "\n";
      text += "--- Page " + (index + 1) + " ---\n";
      try {
        const content = await (await doc.getPage(index + 1)).getTextContent();
        for (const item of content.items) {
          if (!("str" in item)) continue;
          text += item.str;
          if (item.hasEOL) text += "\n";
        }
      } catch (e) {
        text += "[Failed to extract text from page " + (index + 1) + ": " + message(e) + "]\n";
      }
    }
    process.send({ type: "text", text }, () => process.exit(0));
    return;
  }
  let canvas;
  try {
    const loaded = await import(pathToFileURL(canvasPath).href);
    canvas = loaded.default ?? loaded;
  } catch {
    process.send({ type: "failed", message: "Rendering PDF pages is not available on this server (the optional @napi-rs/canvas package is missing). Use format: 'text' instead." }, () => process.exit(0));
    return;
  }
  const pages = [];
  for (const index of command.indices) {
    try {
      const page = await doc.getPage(index + 1);
      const viewport = page.getViewport({ scale: command.dpi / 72 });
      const surface = canvas.createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const context = surface.getContext("2d");
      context.fillStyle = "#ffffff";
      context.fillRect(0, 0, surface.width, surface.height);
      await page.render({ canvasContext: context, viewport }).promise;
      pages.push({ data: (await surface.encode("jpeg", command.quality)).toString("base64"), mime_type: "image/jpeg", page_number: index + 1 });
    } catch (e) {
      process.send({ type: "failed", message: "Failed to render page " + (index + 1) + ": " + message(e) }, () => process.exit(0));
      return;
    }
  }
  process.send({ type: "pages", pages }, () => process.exit(0));
});
`;

/** What the child sends back. */
type ChildReply =
  | { type: "opened"; numPages: number }
  | { type: "openFailed"; message: string }
  | { type: "text"; text: string }
  | { type: "pages"; pages: PdfPageImages["pages"] }
  | { type: "failed"; message: string };

function resolveModule(specifier: string): string | undefined {
  try {
    return createRequire(import.meta.url).resolve(specifier);
  } catch {
    return undefined;
  }
}

/** The result of a PDF read: text of the chosen pages, or their images. */
export type PdfResult = { kind: "text"; text: string } | { kind: "pages"; pages: PdfPageImages };

/**
 * Opens the PDF in a child process (pdf.js is CPU-bound and would block the server's event loop),
 * resolves the page range against its page count, then extracts text or renders JPEGs. A timeout
 * kills the child; a crash becomes the reference's internal-error text.
 */
export function readPdfInChild(
  bytes: Uint8Array,
  options: { format: "text" | "image"; pages: string | undefined; displayPath: string; timeoutMs?: number },
): Promise<PdfResult> {
  const pdfjsPath = resolveModule("pdfjs-dist/legacy/build/pdf.mjs");
  const packageJson = resolveModule("pdfjs-dist/package.json");
  if (pdfjsPath === undefined || packageJson === undefined) {
    return Promise.reject(new PdfReadError("PDF support is not installed on this server (the pdfjs-dist package is missing).", "execution"));
  }
  const fontsUrl = `${path.join(path.dirname(packageJson), "standard_fonts")}/`;
  const canvasPath = resolveModule("@napi-rs/canvas") ?? "";
  const timeoutMs = options.timeoutMs ?? PDF_PROCESS_TIMEOUT_MS;
  return new Promise<PdfResult>((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", PDF_CHILD_SCRIPT, pdfjsPath, fontsUrl, canvasPath], {
      stdio: ["pipe", "ignore", "ignore", "ipc"],
      env: { PATH: process.env.PATH ?? "" },
    });
    let settled = false;
    const finish = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      action();
    };
    const timer = setTimeout(
      () => finish(() => reject(new PdfReadError(`PDF processing timed out after ${timeoutMs / 1000}s: ${options.displayPath}`, "execution"))),
      timeoutMs,
    );
    child.on("message", (raw) => {
      const reply = raw as ChildReply;
      if (reply.type === "opened") {
        if (reply.numPages === 0) return finish(() => reject(new PdfReadError("PDF has no pages", "execution")));
        let indices: number[];
        try {
          indices = resolvePages(reply.numPages, options.pages);
        } catch (error) {
          return finish(() => reject(error));
        }
        totalPages = reply.numPages;
        child.send({ op: options.format, indices, dpi: PDF_RENDER_DPI, quality: PDF_RENDER_JPEG_QUALITY });
        return;
      }
      if (reply.type === "openFailed") return finish(() => reject(new PdfReadError(`Failed to open PDF: ${reply.message}`, "execution")));
      if (reply.type === "failed") return finish(() => reject(new PdfReadError(reply.message, "execution")));
      if (reply.type === "text") return finish(() => resolve({ kind: "text", text: reply.text }));
      return finish(() => resolve({ kind: "pages", pages: { pages: reply.pages, total_pages: totalPages, file_size: bytes.byteLength } }));
    });
    let totalPages = 0;
    child.on("error", (error) => finish(() => reject(new PdfReadError(`PDF processing failed: ${error.message}`, "execution"))));
    child.on("close", () => finish(() => reject(new PdfReadError(`PDF processing failed (internal error): ${options.displayPath}`, "execution"))));
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(bytes);
  });
}

/** Numbers every line of extracted text (`N→line`), as the reference's `raw_text_to_file_content`. */
export function numberAllLines(text: string): { content: string; totalLines: number } {
  const lines = text.split("\n");
  return { content: lines.map((line, i) => `${i + 1}→${line}`).join("\n"), totalLines: lines.length };
}
