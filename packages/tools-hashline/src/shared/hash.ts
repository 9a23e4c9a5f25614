/**
 * The line fingerprints of hashline anchors: FNV-1a (32 bit) over the line with surrounding
 * whitespace trimmed and inner whitespace runs folded to one space (a re-indent keeps the anchor,
 * `return x` vs `returnx` does not), written as 1-4 lowercase letters.
 */

const FNV_OFFSET = 2_166_136_261;
const FNV_PRIME = 16_777_619;

/** FNV-1a 32-bit of some bytes. */
export function fnv1a32(bytes: Uint8Array): number {
  let h = FNV_OFFSET;
  for (const b of bytes) h = Math.imul(h ^ b, FNV_PRIME) >>> 0;
  return h;
}

/** Mixes one 32-bit value into a running hash (XOR, then multiply by the FNV prime). */
export function mix(h: number, value: number): number {
  return Math.imul((h ^ value) >>> 0, FNV_PRIME) >>> 0;
}

const ASCII_WS = new Set([0x20, 0x09, 0x0a, 0x0c, 0x0d]);

/** The whitespace-normalised hash of one line (its UTF-8 bytes). */
export function lineHash(line: string): number {
  const bytes = Buffer.from(line.trim(), "utf8");
  let h = FNV_OFFSET;
  let prevWs = false;
  for (const b of bytes) {
    if (ASCII_WS.has(b)) {
      if (!prevWs) h = Math.imul(h ^ 0x20, FNV_PRIME) >>> 0;
      prevWs = true;
    } else {
      h = Math.imul(h ^ b, FNV_PRIME) >>> 0;
      prevWs = false;
    }
  }
  return h;
}

/** `len` letters: byte i of the hash, mod 26, as `a`-`z`. */
export function encodeHash(hash: number, len: number): string {
  let out = "";
  for (let i = 0; i < len; i++) out += String.fromCharCode((((hash >>> (i * 8)) & 0xff) % 26) + 97);
  return out;
}
