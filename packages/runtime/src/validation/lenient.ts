/**
 * Lenient input parsing (spec §4.0): models send `"true"`, `"120000"` or `null` where a boolean or an
 * integer is expected. Tools apply these in `normalizeInput`, before schema validation; a value that
 * does not coerce is left as it is, so the validator still reports it.
 */

const TRUE_WORDS = new Set(["true", "yes", "1"]);
const FALSE_WORDS = new Set(["false", "no", "0"]);

/** `true/false`, `"true"/"false"/"yes"/"no"/"1"/"0"` (any case, trimmed), `1/0`; null becomes false. */
export function lenientBool(value: unknown): unknown {
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

/** Numeric strings and whole floats become integers. */
export function lenientInteger(value: unknown): unknown {
  if (typeof value === "string" && /^\s*-?\d+(\.0+)?\s*$/.test(value)) return Number(value.trim());
  return value;
}

/** {@link lenientInteger} for an optional field: null means absent (undefined). */
export function lenientOptionalInteger(value: unknown): unknown {
  return value === null ? undefined : lenientInteger(value);
}

/** A list of strings from an array, a bare string or number, or null (task ids). */
export function lenientStringList(value: unknown): unknown {
  if (value === null || value === undefined) return [];
  if (typeof value === "string") return [value];
  if (typeof value === "number" && Number.isFinite(value)) return [String(value)];
  if (Array.isArray(value)) return value.map((item) => (typeof item === "number" ? String(item) : item));
  return value;
}

/** Applies `fix` to `key` of `raw` in place when present, deleting the key when the result is undefined. */
export function normalizeKey(raw: Record<string, unknown>, key: string, fix: (value: unknown) => unknown): void {
  if (!Object.hasOwn(raw, key)) return;
  const value = fix(raw[key]);
  if (value === undefined) delete raw[key];
  else raw[key] = value;
}

/** A copy of `raw` with the named keys coerced by `coerce` (absent keys stay absent). */
export function coerceKeys(raw: Record<string, unknown>, keys: readonly string[], coerce: (value: unknown) => unknown): Record<string, unknown> {
  const out = { ...raw };
  for (const key of keys) if (Object.hasOwn(out, key)) out[key] = coerce(out[key]);
  return out;
}

/** A copy of `raw` without the named keys whose value is null (an optional value left unset). */
export function dropNullKeys(raw: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out = { ...raw };
  for (const key of keys) if (out[key] === null) delete out[key];
  return out;
}
