/**
 * Task ids: UUIDv7 strings (time-ordered, random tail), the shape the reference gives
 * background tasks. Auto-backgrounded foreground commands use the call id instead.
 */
import { randomFillSync } from "node:crypto";

/**
 * Random bytes for 256 ids, refilled when used up (issue #18): every call without a call id gets
 * one, and a `randomBytes(16)` per id was a trip into the CSPRNG per call (2% of a cheap call's
 * server time in a profile). The bytes are the same CSPRNG's, each used once.
 */
const POOL = Buffer.alloc(16 * 256);
let next = POOL.length;

/** The ASCII codes of the two hex digits of each byte value: byte b at 2b and 2b + 1. */
const HEX_CODES = new Uint8Array(512);
for (let byte = 0; byte < 256; byte++) {
  const hex = byte.toString(16).padStart(2, "0");
  HEX_CODES[2 * byte] = hex.charCodeAt(0);
  HEX_CODES[2 * byte + 1] = hex.charCodeAt(1);
}

/** Where an id's text is written before it becomes a string; the dashes never move. */
const TEXT = Buffer.from("00000000-0000-0000-0000-000000000000", "latin1");

/** Writes the two hex digits of `byte` at `offset` of {@link TEXT}. */
function putHex(offset: number, byte: number): void {
  TEXT[offset] = HEX_CODES[2 * byte]!;
  TEXT[offset + 1] = HEX_CODES[2 * byte + 1]!;
}

/** A fresh UUIDv7 (`xxxxxxxx-xxxx-7xxx-yxxx-xxxxxxxxxxxx`). */
export function uuidV7(nowMs: number = Date.now()): string {
  if (next === POOL.length) {
    randomFillSync(POOL);
    next = 0;
  }
  // The text is written into one buffer and read out as one string: no copy of the bytes, no
  // radix conversion of the time, and one allocation (joining two-digit strings made a rope of
  // twenty pieces, ~600 B of garbage per id). Each id reads its 10 random bytes once, before a
  // refill can overwrite them.
  const at = next;
  next += 16;
  const time = Math.max(0, Math.floor(nowMs)) % 2 ** 48;
  const high = Math.floor(time / 2 ** 32);
  const low = time >>> 0;
  const p = POOL;
  putHex(0, high >>> 8);
  putHex(2, high & 0xff);
  putHex(4, low >>> 24);
  putHex(6, (low >>> 16) & 0xff);
  putHex(9, (low >>> 8) & 0xff);
  putHex(11, low & 0xff);
  putHex(14, (p[at + 6]! & 0x0f) | 0x70);
  putHex(16, p[at + 7]!);
  putHex(19, (p[at + 8]! & 0x3f) | 0x80);
  putHex(21, p[at + 9]!);
  for (let i = 10; i < 16; i++) putHex(24 + 2 * (i - 10), p[at + i]!);
  return TEXT.toString("latin1", 0, 36);
}
