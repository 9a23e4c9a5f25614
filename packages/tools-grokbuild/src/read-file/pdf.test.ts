import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "@grok-tools/runtime";
import { Session, ToolRegistry, type ExecuteOutcome } from "@grok-tools/runtime/host";
import { grokBuild } from "../namespace.js";
import { PDF_MAX_PAGES_PER_READ, parsePageRange, readPdfInChild } from "./pdf.js";

/** A minimal PDF with one Helvetica text line per page (the reference's `make_test_pdf`). */
function makeTestPdf(pageTexts: string[]): Buffer {
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [pdf.length];
  pdf += "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n";
  offsets.push(pdf.length);
  pdf += `2 0 obj\n<< /Type /Pages /Kids [${pageTexts.map((_, i) => `${3 + i * 3} 0 R`).join(" ")}] /Count ${pageTexts.length} >>\nendobj\n`;
  pageTexts.forEach((text, i) => {
    const [page, content, font] = [3 + i * 3, 4 + i * 3, 5 + i * 3];
    const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
    offsets.push(pdf.length);
    pdf += `${page} 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${content} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>\nendobj\n`;
    offsets.push(pdf.length);
    pdf += `${content} 0 obj\n<< /Length ${stream.length} >>\nstream\n${stream}\nendstream\nendobj\n`;
    offsets.push(pdf.length);
    pdf += `${font} 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n`;
  });
  const xref = pdf.length;
  const total = 2 + pageTexts.length * 3 + 1;
  pdf += `xref\n0 ${total}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  pdf += `trailer\n<< /Size ${total} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}

describe("parsePageRange (reference cases)", () => {
  test.each([
    ["3", 10, [2]],
    ["2-5", 10, [1, 2, 3, 4]],
    ["8-", 10, [7, 8, 9]],
    ["1,3,7-9", 10, [0, 2, 6, 7, 8]],
    ["5,3,1,3,5", 10, [0, 2, 4]],
    ["8-", 9, [7, 8]],
    [" 1 , 3 , 5 ", 10, [0, 2, 4]],
    ["1", 1, [0]],
    ["1-100", 5, [0, 1, 2, 3, 4]],
  ] as const)("%s of %d pages", (spec, count, expected) => {
    expect(parsePageRange(spec, count)).toEqual(expected);
  });
  test.each([
    ["0", 10, "page 0 out of range (document has 10 pages)"],
    ["11", 10, "page 11 out of range (document has 10 pages)"],
    ["5-3", 10, "invalid page range: 5-3 (start must be ≤ end)"],
    ["abc", 10, "invalid page number: 'abc'"],
    ["", 10, "no pages specified"],
    [",,,", 10, "no pages specified"],
    ["1-21", 30, `requested 21 pages, maximum is ${PDF_MAX_PAGES_PER_READ} per call`],
    ["1", 0, "page 1 out of range (document has 0 pages)"],
  ] as const)("%s of %d pages fails", (spec, count, message) => {
    expect(() => parsePageRange(spec, count)).toThrow(message);
  });
  test("twenty pages are fine", () => {
    expect(parsePageRange("1-20", 30)).toHaveLength(20);
  });
});

test("the child process is killed at the deadline", async () => {
  const started = Date.now();
  await expect(readPdfInChild(makeTestPdf(["x"]), { format: "text", pages: undefined, displayPath: "/w/x.pdf", timeoutMs: 50 })).rejects.toThrow(
    "PDF processing timed out after 0.05s: /w/x.pdf",
  );
  expect(Date.now() - started).toBeLessThan(5000);
});

describe("read_file on PDFs", () => {
  let ws: string;
  let session: Session;
  beforeEach(async () => {
    ws = await realpath(await mkdtemp(path.join(os.tmpdir(), "read-pdf-")));
    session = new Session({ registry: ToolRegistry.of([grokBuild]), workspace: ws, stateDir: path.join(ws, ".state") });
    await session.finalize({ tools: [{ id: "GrokBuild:read_file" }] });
  });
  afterEach(async () => {
    await session.close();
    await rm(ws, { recursive: true, force: true });
  });
  const read = (input: Record<string, unknown>): Promise<ExecuteOutcome> => session.execute({ toolName: "read_file", inputJson: JSON.stringify(input) });

  test("format text: page headers, every line numbered", async () => {
    await writeFile(path.join(ws, "doc.pdf"), makeTestPdf(["Hello page one", "Second page"]));
    const outcome = await read({ target_file: "doc.pdf", format: "text" });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(outcome.promptText).toBe("1→--- Page 1 ---\n2→Hello page one\n3→--- Page 2 ---\n4→Second page");
    expect(JSON.parse(outcome.outputJson).FileContent).toMatchObject({ absolute_path: path.join(ws, "doc.pdf"), offset: null, total_lines: 4 });
  });
  test("format image (default): one JPEG per page", async () => {
    await writeFile(path.join(ws, "doc.pdf"), makeTestPdf(["Hello", "World"]));
    const outcome = await read({ target_file: "doc.pdf", pages: "2" });
    if (!outcome.ok) throw new Error(outcome.error.message);
    const output = JSON.parse(outcome.outputJson);
    expect(output.PdfPageImages.pages).toHaveLength(1);
    expect(output.PdfPageImages.pages[0]).toMatchObject({ mime_type: "image/jpeg", page_number: 2 });
    expect(Buffer.from(output.PdfPageImages.pages[0].data, "base64").subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const kb = (output.PdfPageImages.file_size / 1024).toFixed(1);
    expect(outcome.promptText).toBe(`[Read PDF: 1 pages rendered (pages 2). Total document: 2 pages, ${kb} KB]`);
  });
  test("more than ten pages need `pages`; bad format and bad PDFs fail with the reference's texts", async () => {
    await writeFile(path.join(ws, "long.pdf"), makeTestPdf(Array.from({ length: 11 }, (_, i) => `p${i + 1}`)));
    const long = await read({ target_file: "long.pdf", format: "text" });
    expect(!long.ok && long.error.message).toBe(
      'PDF has 11 pages which exceeds the 10 page auto-read limit. Use the `pages` parameter to specify which pages to read (e.g. pages="1-5"). Maximum 20 pages per call.',
    );
    const badFormat = await read({ target_file: "long.pdf", format: "markdown" });
    expect(!badFormat.ok && badFormat.error).toMatchObject({
      code: ErrorCode.INVALID_INPUT,
      message: "Invalid format 'markdown'. Supported values: 'image' (default), 'text'.",
    });
    await writeFile(path.join(ws, "mystery.bin"), "%PDF-1.4 invalid rest");
    const corrupt = await read({ target_file: "mystery.bin", format: "text" });
    expect(!corrupt.ok && corrupt.error.message).toMatch(/^Failed to open PDF: /);
    const range = await read({ target_file: "long.pdf", format: "text", pages: "12" });
    expect(!range.ok && range.error.message).toBe("page 12 out of range (document has 11 pages)");
  });
});
