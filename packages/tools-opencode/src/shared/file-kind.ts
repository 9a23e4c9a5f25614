/** What a read finds in a file: an image (by magic bytes), a binary file, or text (spec §4.14 read). */

/** Extensions always treated as binary (the reference's list, sorted). */
const BINARY_EXTENSIONS = new Set([
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
/** Bytes sampled by the content check. */
const SAMPLE_SIZE = 8192;
/** Share of control bytes above which a sample is binary. */
const NON_PRINTABLE_THRESHOLD = 0.3;

/** The image MIME type of `bytes` by magic number, if it is an image a model can see. */
export function imageMimeType(bytes: Uint8Array): string | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return "image/webp";
  return undefined;
}

/** The reference's binary test: a listed extension, a NUL byte, or over 30 % control bytes in the first 8 KiB. */
export function isBinary(extension: string, bytes: Uint8Array): boolean {
  if (BINARY_EXTENSIONS.has(extension)) return true;
  if (bytes.length === 0) return false;
  const sample = bytes.subarray(0, Math.min(bytes.length, SAMPLE_SIZE));
  let nonPrintable = 0;
  for (const b of sample) {
    if (b === 0) return true;
    if (b < 9 || (b >= 14 && b <= 31)) nonPrintable++;
  }
  return nonPrintable / sample.length > NON_PRINTABLE_THRESHOLD;
}
