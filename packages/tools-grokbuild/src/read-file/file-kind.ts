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
  // An indexed loop: `for...of` over the bytes took 29 µs for a full sample here, this 11 µs (issue #18).
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i]!;
    if (b < 9 || (b >= 14 && b <= 31)) nonPrintable++;
  }
  return nonPrintable / sample.length > NON_PRINTABLE_THRESHOLD;
}

/** Whether `magic` is at `at` in `bytes` (a loop: no closure per check, issue #18). */
function startsWith(bytes: Uint8Array, magic: readonly number[], at = 0): boolean {
  if (bytes.length < at + magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[at + i] !== magic[i]) return false;
  return true;
}
const ascii = (text: string): readonly number[] => Object.freeze([...text].map((c) => c.charCodeAt(0)));

// Made once: every read of a file asks what it is (built per call, these arrays and the closures
// that compared them were ~2.8 KB of a one-line read's garbage, issue #18).
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87A = ascii("GIF87a");
const GIF89A = ascii("GIF89a");
const RIFF = ascii("RIFF");
const WEBP = ascii("WEBP");
const BMP = [0x42, 0x4d];
const TIFF_LE = [0x49, 0x49, 0x2a, 0x00];
const TIFF_BE = [0x4d, 0x4d, 0x00, 0x2a];
const ICO = [0x00, 0x00, 0x01, 0x00];
const FTYP = ascii("ftyp");
const HEIF_BRANDS: readonly string[] = ["heic", "heix", "hevc", "hevx", "mif1", "msf1"];
const PSD = ascii("8BPS");
const JXL_CONTAINER = [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x58, 0x4c, 0x20];
const JXL_CODESTREAM = [0xff, 0x0a];
const PDF = ascii("%PDF-");

/** The image MIME type of some bytes by their magic number, or undefined. */
export function imageMimeType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, PNG)) return "image/png";
  if (startsWith(bytes, JPEG)) return "image/jpeg";
  if (startsWith(bytes, GIF87A) || startsWith(bytes, GIF89A)) return "image/gif";
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return "image/webp";
  if (startsWith(bytes, BMP) && bytes.length >= 14) return "image/bmp";
  if (startsWith(bytes, TIFF_LE) || startsWith(bytes, TIFF_BE)) return "image/tiff";
  if (startsWith(bytes, ICO)) return "image/vnd.microsoft.icon";
  if (startsWith(bytes, FTYP, 4)) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (brand === "avif" || brand === "avis") return "image/avif";
    if (HEIF_BRANDS.includes(brand)) return "image/heif";
  }
  if (startsWith(bytes, PSD)) return "image/vnd.adobe.photoshop";
  if (startsWith(bytes, JXL_CONTAINER) || startsWith(bytes, JXL_CODESTREAM)) return "image/jxl";
  return undefined;
}

/** PDF by magic bytes or by extension (the reference's three-tier check). */
export function isPdf(bytes: Uint8Array, extension: string): boolean {
  return startsWith(bytes, PDF) || extension === "pdf";
}
