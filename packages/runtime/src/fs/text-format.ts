/**
 * Keeps a text file's format across an edit: its UTF-8 BOM and its line endings (decision D3).
 * Tools decode to LF text without BOM, edit, then encode back with the original format.
 */

/** The format of a text file. */
export interface TextFormat {
  bom: boolean;
  lineEnding: "\n" | "\r\n";
}

const UTF8_BOM = "\uFEFF";

/** Detects the format: CRLF when most line breaks are CRLF. */
export function detectTextFormat(text: string): TextFormat {
  const bom = text.startsWith(UTF8_BOM);
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length;
  return { bom, lineEnding: crlf > 0 && crlf * 2 >= lf ? "\r\n" : "\n" };
}

/** Splits a file's text into its format and its content with LF line endings and no BOM. */
export function decodeText(text: string): { text: string; format: TextFormat } {
  const format = detectTextFormat(text);
  const body = format.bom ? text.slice(UTF8_BOM.length) : text;
  return { text: format.lineEnding === "\r\n" ? body.replace(/\r\n/g, "\n") : body, format };
}

/** Turns LF text back into the file's format. */
export function encodeText(text: string, format: TextFormat): string {
  const body = format.lineEnding === "\r\n" ? text.replace(/\r?\n/g, "\r\n") : text;
  return format.bom && !body.startsWith(UTF8_BOM) ? UTF8_BOM + body : body;
}
