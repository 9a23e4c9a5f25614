/**
 * Makes an image file embeddable in a conversation (reference `read_file/image.rs`): JPEG/PNG/WebP
 * within the byte and pixel budgets pass through unchanged; anything else is decoded, scaled to the
 * budgets and re-encoded (smaller of PNG and a JPEG quality ladder) with the optional `@napi-rs/canvas`.
 * Decoding runs in a child process: the native decoder can crash on corrupt files, and a crash there
 * must not take the server down.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";

/** Largest base64 payload of an embedded image. */
export const MAX_IMAGE_PAYLOAD_BYTES = 768 * 1024;
/** Raw-byte budget derived from the payload cap. */
const MAX_IMAGE_RAW_BYTES = (MAX_IMAGE_PAYLOAD_BYTES * 3) / 4;
/** Total pixel budget (w*h) of an image sent to the model. */
const MAX_IMAGE_PIXELS = 1_048_576;
/** Largest side of an image sent to the model. */
const MAX_IMAGE_DIMENSION_PX = 2000;
/** Re-encoding gives up when the longest side falls to this. */
const MIN_IMAGE_DIMENSION_PX = 128;
/** JPEG qualities tried, best first. */
const READFILE_QUALITY_STEPS = [85, 70, 50, 40] as const;
/** Images above this many pixels are refused before decoding. */
const MAX_DECODE_PIXELS = 178_956_970;
/** Formats the model endpoint accepts as they are. */
const ENDPOINT_FORMATS = new Set(["image/png", "image/jpeg", "image/webp"]);

/** An embeddable image, or the reason it cannot be embedded (the text after `Could not embed image in conversation: `). */
export type CompressedImage = { ok: true; data: Buffer; mimeType: string } | { ok: false; reason: string };

/** Width and height from the PNG/JPEG/GIF/WebP/BMP header, when the header says. */
export function imageDimensions(bytes: Uint8Array, mime: string): { width: number; height: number } | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (mime === "image/png" && view.length >= 24) return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
    if (mime === "image/gif" && view.length >= 10) return { width: view.readUInt16LE(6), height: view.readUInt16LE(8) };
    if (mime === "image/bmp" && view.length >= 26) return { width: Math.abs(view.readInt32LE(18)), height: Math.abs(view.readInt32LE(22)) };
    if (mime === "image/jpeg") {
      let i = 2;
      while (i + 9 < view.length) {
        if (view[i] !== 0xff) return undefined;
        const marker = view[i + 1] ?? 0;
        const length = view.readUInt16BE(i + 2);
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return { width: view.readUInt16BE(i + 7), height: view.readUInt16BE(i + 5) };
        }
        i += 2 + length;
      }
    }
    if (mime === "image/webp" && view.length >= 30) {
      const chunk = view.toString("latin1", 12, 16);
      if (chunk === "VP8X") return { width: 1 + view.readUIntLE(24, 3), height: 1 + view.readUIntLE(27, 3) };
      if (chunk === "VP8 ") return { width: view.readUInt16LE(26) & 0x3fff, height: view.readUInt16LE(28) & 0x3fff };
      if (chunk === "VP8L") {
        const bits = view.readUInt32LE(21);
        return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}

const exceedsDimensionCaps = (w: number, h: number): boolean => w > MAX_IMAGE_DIMENSION_PX || h > MAX_IMAGE_DIMENSION_PX || w * h > MAX_IMAGE_PIXELS;

/** Time budget of one re-encode. */
const IMAGE_PROCESS_TIMEOUT_MS = 60_000;

/** The re-encode ladder, run by a child `node` with the canvas module path in argv[1] and the image on stdin. */
const REENCODE_SCRIPT = String.raw`
const [canvasPath, maxRawText, maxPayloadText, maxPixelsText, maxSideText, minSideText, qualitiesText, maxDecodeText] = process.argv.slice(1);
const [maxRaw, maxPayload, maxPixels, maxSideCap, minSide, maxDecode] = [maxRawText, maxPayloadText, maxPixelsText, maxSideText, minSideText, maxDecodeText].map(Number);
const qualities = qualitiesText.split(",").map(Number);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const bytes = Buffer.concat(chunks);
const reply = (value) => process.stdout.write(JSON.stringify(value));
const { pathToFileURL } = await import("node:url");
const canvas = await import(pathToFileURL(canvasPath).href);
const { createCanvas, loadImage } = canvas.default ?? canvas;
let image;
try {
  image = await loadImage(bytes);
} catch (error) {
  reply({ ok: false, reason: "image decode failed: " + (error && error.message ? error.message : String(error)) });
  process.exit(0);
}
const width = image.width, height = image.height;
if (!width || !height) { reply({ ok: false, reason: "image format could not be detected" }); process.exit(0); }
if (width * height > maxDecode) { reply({ ok: false, reason: "image dimensions " + width + "x" + height + " exceed the " + maxDecode + " pixel decode limit" }); process.exit(0); }
const originalMax = Math.max(width, height);
let maxSide = Math.min(maxSideCap, originalMax);
if (width * height > maxPixels) {
  const long = originalMax, short = Math.min(width, height);
  let side = Math.min(Math.max(Math.floor(long * Math.sqrt(maxPixels / (long * short))), 1), long);
  const area = (s) => Math.max(Math.round(long * (s / long)), 1) * Math.max(Math.round(short * (s / long)), 1);
  while (side > 1 && area(side) > maxPixels) side--;
  maxSide = Math.min(maxSide, side);
}
for (;;) {
  const ratio = maxSide < originalMax ? maxSide / originalMax : 1;
  const w = Math.max(Math.round(width * ratio), 1), h = Math.max(Math.round(height * ratio), 1);
  const surface = createCanvas(w, h);
  surface.getContext("2d").drawImage(image, 0, 0, w, h);
  const png = await surface.encode("png");
  let jpeg;
  for (const quality of qualities) {
    const candidate = await surface.encode("jpeg", quality);
    if (candidate.length <= maxRaw) { jpeg = candidate; break; }
  }
  const pngFits = png.length <= maxRaw;
  if (pngFits && (jpeg === undefined || png.length <= jpeg.length)) { reply({ ok: true, mimeType: "image/png", data: png.toString("base64") }); break; }
  if (jpeg !== undefined) { reply({ ok: true, mimeType: "image/jpeg", data: jpeg.toString("base64") }); break; }
  if (maxSide <= minSide) { reply({ ok: false, reason: "compressed image still exceeds the " + maxPayload + "-byte conversation payload cap" }); break; }
  maxSide = Math.floor((maxSide * 3) / 4);
}
`;

/** Path of the optional canvas module, or undefined when it is not installed. */
function canvasModulePath(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve("@napi-rs/canvas");
  } catch {
    return undefined;
  }
}

/** Runs the re-encode ladder in a child process; a crash or timeout becomes a decode failure. */
function reencodeInChild(bytes: Buffer, canvasPath: string): Promise<CompressedImage> {
  const args = [
    MAX_IMAGE_RAW_BYTES,
    MAX_IMAGE_PAYLOAD_BYTES,
    MAX_IMAGE_PIXELS,
    MAX_IMAGE_DIMENSION_PX,
    MIN_IMAGE_DIMENSION_PX,
    READFILE_QUALITY_STEPS.join(","),
    MAX_DECODE_PIXELS,
  ].map(String);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", REENCODE_SCRIPT, canvasPath, ...args], {
      stdio: ["pipe", "pipe", "ignore"],
      env: { PATH: process.env.PATH ?? "" },
    });
    const out: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), IMAGE_PROCESS_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stdin.on("error", () => undefined);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: `image decode failed: ${error.message}` });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      try {
        const reply = JSON.parse(Buffer.concat(out).toString("utf8")) as { ok: boolean; reason?: string; mimeType?: string; data?: string };
        if (reply.ok && typeof reply.data === "string" && typeof reply.mimeType === "string")
          resolve({ ok: true, data: Buffer.from(reply.data, "base64"), mimeType: reply.mimeType });
        else resolve({ ok: false, reason: reply.reason ?? "image decode failed" });
      } catch {
        const how =
          signal === "SIGKILL"
            ? `timed out after ${IMAGE_PROCESS_TIMEOUT_MS / 1000}s`
            : signal !== null
              ? `the decoder crashed (${signal})`
              : `the decoder exited with code ${String(code)}`;
        resolve({ ok: false, reason: `image decode failed: ${how}` });
      }
    });
    child.stdin.end(bytes);
  });
}

/** Prepares an image file's bytes for the conversation. */
export async function compressImageForConversation(bytes: Buffer, mime: string): Promise<CompressedImage> {
  const dims = imageDimensions(bytes, mime);
  const fitsPayload = Math.ceil((bytes.length * 4) / 3) <= MAX_IMAGE_PAYLOAD_BYTES;
  if (ENDPOINT_FORMATS.has(mime) && fitsPayload && (dims === undefined || !exceedsDimensionCaps(dims.width, dims.height))) {
    return { ok: true, data: bytes, mimeType: mime };
  }
  if (dims !== undefined && dims.width * dims.height > MAX_DECODE_PIXELS) {
    return { ok: false, reason: `image dimensions ${dims.width}x${dims.height} exceed the ${MAX_DECODE_PIXELS} pixel decode limit` };
  }
  const canvasPath = canvasModulePath();
  if (canvasPath === undefined) {
    // Without a decoder, pass through what the endpoint accepts; anything else cannot be embedded.
    if (ENDPOINT_FORMATS.has(mime) && fitsPayload) return { ok: true, data: bytes, mimeType: mime };
    return {
      ok: false,
      reason: fitsPayload
        ? "image format could not be detected"
        : `compressed image still exceeds the ${MAX_IMAGE_PAYLOAD_BYTES}-byte conversation payload cap`,
    };
  }
  return reencodeInChild(bytes, canvasPath);
}
