/**
 * What kind of bytes a file holds: an image (by magic bytes, like the `infer` crate), a PDF, or
 * binary data that read_file refuses (extension list, NUL byte, or >30 % control bytes).
 */

/** Extensions always treated as binary (reference `util/binary.rs`). */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  "7z",
  "a",
  "avi",
  "avif",
  "bin",
  "bmp",
  "class",
  "dat",
  "dll",
  "doc",
  "docx",
  "dylib",
  "exe",
  "gif",
  "gz",
  "ico",
  "jar",
  "jpeg",
  "jpg",
  "lib",
  "mov",
  "mp3",
  "mp4",
  "o",
  "obj",
  "odp",
  "ods",
  "odt",
  "png",
  "ppt",
  "pyc",
  "pyd",
  "pyo",
  "qoi",
  "rar",
  "so",
  "tar",
  "tif",
  "tiff",
  "war",
  "wasm",
  "webp",
  "xls",
  "xlsx",
  "zip",
]);
const SAMPLE_SIZE_BYTES = 8192;
const NON_PRINTABLE_THRESHOLD = 0.3;

/** Binary by extension (lower-case, without dot) or by content. */
export function isBinary(extension: string, bytes: Uint8Array): boolean {
  if (BINARY_EXTENSIONS.has(extension)) return true;
  if (bytes.length === 0) return false;
  const sample = bytes.subarray(0, SAMPLE_SIZE_BYTES);
  if (sample.includes(0)) return true;
  let nonPrintable = 0;
  for (const b of sample) if (b < 9 || (b >= 14 && b <= 31)) nonPrintable++;
  return nonPrintable / sample.length > NON_PRINTABLE_THRESHOLD;
}

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0): boolean =>
  bytes.length >= at + magic.length && magic.every((b, i) => bytes[at + i] === b);
const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** The image MIME type of some bytes by their magic number, or undefined. */
export function imageMimeType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  if (startsWith(bytes, [0x42, 0x4d]) && bytes.length >= 14) return "image/bmp";
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return "image/tiff";
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00])) return "image/vnd.microsoft.icon";
  if (startsWith(bytes, ascii("ftyp"), 4)) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (brand === "avif" || brand === "avis") return "image/avif";
    if (["heic", "heix", "hevc", "hevx", "mif1", "msf1"].includes(brand)) return "image/heif";
  }
  if (startsWith(bytes, ascii("8BPS"))) return "image/vnd.adobe.photoshop";
  if (startsWith(bytes, [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x58, 0x4c, 0x20]) || startsWith(bytes, [0xff, 0x0a])) return "image/jxl";
  return undefined;
}

/** PDF by magic bytes or by extension (the reference's three-tier check). */
export function isPdf(bytes: Uint8Array, extension: string): boolean {
  return startsWith(bytes, ascii("%PDF-")) || extension === "pdf";
}
