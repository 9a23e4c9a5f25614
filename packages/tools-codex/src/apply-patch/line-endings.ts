/**
 * Keeps a file's line endings and byte-order mark across an edit (decision D3): a file written with
 * CRLF throughout is patched as LF text and written back with CRLF; a leading UTF-8 BOM is kept.
 */

const BOM = "\uFEFF";

/** How a file's text is laid out on disk. */
export interface TextLayout {
  crlf: boolean;
  bom: boolean;
}

/** Splits off the layout: the text to patch uses bare `\n` and has no BOM. */
export function toPatchable(text: string): { text: string; layout: TextLayout } {
  const bom = text.startsWith(BOM);
  let body = bom ? text.slice(BOM.length) : text;
  const lfCount = body.split("\n").length - 1;
  const crlfCount = body.split("\r\n").length - 1;
  const crlf = crlfCount > 0 && crlfCount === lfCount;
  if (crlf) body = body.split("\r\n").join("\n");
  return { text: body, layout: { crlf, bom } };
}

/** Puts the layout back on patched text. */
export function fromPatchable(text: string, layout: TextLayout): string {
  const body = layout.crlf ? text.split("\n").join("\r\n") : text;
  return layout.bom ? BOM + body : body;
}
