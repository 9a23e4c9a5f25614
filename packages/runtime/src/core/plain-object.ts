/**
 * Plain JSON objects from outside: the shape check and the keys that must never become object keys
 * (prototype pollution), shared by every module that reads host or model JSON.
 */

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Whether a key may be used as a resource id or an object key coming from outside. */
export function isSafeKey(key: string): boolean {
  return !FORBIDDEN_KEYS.has(key);
}

/** Whether a value is a JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
