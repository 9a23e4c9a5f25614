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

/** A fresh UUIDv7 (`xxxxxxxx-xxxx-7xxx-yxxx-xxxxxxxxxxxx`). */
export function uuidV7(nowMs: number = Date.now()): string {
  if (next === POOL.length) {
    randomFillSync(POOL);
    next = 0;
  }
  // A copy: the pool is overwritten on refill, and the id's bytes must not be shared.
  const bytes = Buffer.from(POOL.subarray(next, next + 16));
  next += 16;
  bytes.writeUIntBE(Math.max(0, Math.floor(nowMs)) % 2 ** 48, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
