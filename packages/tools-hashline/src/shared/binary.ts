/** The binary-file test of the read tools: a NUL byte, or over 30 % control bytes, in the first 8 KiB. */

const SAMPLE_SIZE = 8192;
const NON_PRINTABLE_THRESHOLD = 0.3;

/** Whether `bytes` look binary. */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  const sample = bytes.subarray(0, Math.min(bytes.length, SAMPLE_SIZE));
  let nonPrintable = 0;
  for (const b of sample) {
    if (b === 0) return true;
    if (b < 9 || (b >= 14 && b <= 31)) nonPrintable++;
  }
  return nonPrintable / sample.length > NON_PRINTABLE_THRESHOLD;
}
