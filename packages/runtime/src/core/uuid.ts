/**
 * Task ids: UUIDv7 strings (time-ordered, random tail), the shape the reference gives
 * background tasks. Auto-backgrounded foreground commands use the call id instead.
 */
import { randomBytes } from "node:crypto";

/** A fresh UUIDv7 (`xxxxxxxx-xxxx-7xxx-yxxx-xxxxxxxxxxxx`). */
export function uuidV7(nowMs: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Math.max(0, Math.floor(nowMs)) % 2 ** 48, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
