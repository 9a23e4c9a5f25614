/**
 * Lenient input parsing (spec §4.0): models send `"true"`, `"120000"` or `null` where a
 * boolean or an integer is expected. These normalizers turn such values into the typed
 * form before schema validation, and leave anything else for the validator to reject.
 */

const TRUE_WORDS = new Set(["true", "yes", "1"]);
const FALSE_WORDS = new Set(["false", "no", "0"]);

/** `true/false`, `"yes"/"no"/"1"/"0"` (any case, trimmed), `1/0`; null becomes false. */
export function lenientBoolean(value: unknown): unknown {
  if (value === null) return false;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  if (value === 1) return true;
  if (value === 0) return false;
  return value;
}

/** Numeric strings and whole floats become integers; null becomes absent (undefined). */
export function lenientInteger(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === "string" && /^\s*-?\d+(\.0+)?\s*$/.test(value)) return Number(value.trim());
  return value;
}

/** Applies `fix` to `key` of `raw` when present, dropping it when the result is undefined. */
export function normalizeKey(raw: Record<string, unknown>, key: string, fix: (value: unknown) => unknown): void {
  if (!Object.hasOwn(raw, key)) return;
  const value = fix(raw[key]);
  if (value === undefined) delete raw[key];
  else raw[key] = value;
}

/** A list of strings from an array, a bare string or number, or null (task ids). */
export function lenientStringList(value: unknown): unknown {
  if (value === null || value === undefined) return [];
  if (typeof value === "string") return [value];
  if (typeof value === "number" && Number.isFinite(value)) return [String(value)];
  if (Array.isArray(value)) return value.map((item) => (typeof item === "number" ? String(item) : item));
  return value;
}
