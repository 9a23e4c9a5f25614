/** The prompt text of a successful read_file (the reference's `to_prompt_format` for ReadFile). */
import type { FileContent, ImageContent, PdfPageImages } from "./schema.js";

/** Text for a text window: the content, or a notice when the window is empty. */
export function formatFileContent(file: FileContent): string {
  if (file.content !== "") return file.content;
  if (file.total_lines === 0) return "File is empty.";
  if (file.offset !== null && file.offset > file.total_lines) {
    return `(no lines returned: the requested window is past the end of the file; the file has ${file.total_lines} lines)`;
  }
  return "(no lines returned)";
}

/** Text for an image. */
export function formatImageContent(image: ImageContent): string {
  return `[Image content of type: ${image.mime_type} is included inline in this tool result]`;
}

/** Text for rendered PDF pages. */
export function formatPdfPageImages(pdf: PdfPageImages): string {
  const pages = pdf.pages.map((p) => String(p.page_number)).join(", ");
  return `[Read PDF: ${pdf.pages.length} pages rendered (pages ${pages}). Total document: ${pdf.total_pages} pages, ${(pdf.file_size / 1024).toFixed(1)} KB]`;
}
