/**
 * PowerPoint text for read_file (reference `read_file/pptx.rs`): `--- Slide N ---` sections in
 * numeric slide order, one line per DrawingML paragraph, and the slide's `Speaker Notes:` when it
 * has any. Unzipping is fflate's; the DrawingML scan only needs `<a:t>` runs and `</a:p>` ends.
 */
import { unzipSync } from "fflate";

/** Largest .pptx read_file extracts. */
export const MAX_PPTX_BYTES = 50 * 1024 * 1024;
/** Cap on one decompressed XML entry (zip-bomb guard). */
const MAX_XML_ENTRY_BYTES = 64 * 1024 * 1024;

const SLIDE = /^ppt\/slides\/slide(\d+)\.xml$/;
const NOTES = /^ppt\/notesSlides\/notesSlide(\d+)\.xml$/;
const PREDEFINED: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** A .pptx that cannot be read; the message is the reference's text. */
export class PptxError extends Error {}

/** The reference's size refusal: `PPTX file is 61.2 MB, exceeds the 50 MB limit.` */
export function pptxTooLargeMessage(bytes: number): string {
  return `PPTX file is ${(bytes / 1_048_576).toFixed(1)} MB, exceeds the ${(MAX_PPTX_BYTES / 1_048_576).toFixed(0)} MB limit.`;
}

/** The text of every slide (and its notes), as the reference lays it out. */
export function extractPptxText(bytes: Uint8Array): string {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (file) => (SLIDE.test(file.name) || NOTES.test(file.name)) && file.originalSize <= MAX_XML_ENTRY_BYTES });
  } catch (error) {
    throw new PptxError(`Failed to extract text from PPTX: Failed to open PPTX archive: ${(error as Error).message}`);
  }
  const decoder = new TextDecoder();
  const slides = Object.keys(entries)
    .map((name) => SLIDE.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  if (slides.length === 0) throw new PptxError("Failed to extract text from PPTX: No slides found in PPTX");
  const sections = slides.map((n) => {
    const slide = drawingMlText(decoder.decode(entries[`ppt/slides/slide${n}.xml`]));
    const notesXml = entries[`ppt/notesSlides/notesSlide${n}.xml`];
    const notes = notesXml ? drawingMlText(decoder.decode(notesXml)) : "";
    return `--- Slide ${n} ---\n${slide}${notes === "" ? "" : `\n\nSpeaker Notes:\n${notes}`}`;
  });
  return sections.join("\n\n");
}

/** The character content of `<a:t>` runs, one line per `<a:p>` paragraph, trimmed. */
export function drawingMlText(xml: string): string {
  let text = "";
  let inRun = false;
  for (const token of xml.matchAll(/<(\/?)([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[^>]*?(\/?)>|([^<]+)/g)) {
    const [, closing, , localName, selfClosing, chars] = token;
    if (chars !== undefined) {
      if (inRun) text += decodeEntities(chars);
      continue;
    }
    if (localName === "t" && !closing && !selfClosing) inRun = true;
    else if (localName === "t" && closing) inRun = false;
    else if (localName === "p" && closing && text !== "" && !text.endsWith("\n")) text += "\n";
  }
  return text.trim();
}

function decodeEntities(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith("#x")) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    return PREDEFINED[ref] ?? whole;
  });
}
