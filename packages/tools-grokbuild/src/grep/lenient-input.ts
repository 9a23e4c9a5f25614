/**
 * Lenient coercion of model-written input values (spec §4.0 "Lenient parsing"), applied in
 * `normalizeInput` before schema validation. Values that do not coerce are left as they are,
 * so validation still reports them.
 */

const TRUE_WORDS = new Set(["true", "yes", "1"]);
const FALSE_WORDS = new Set(["false", "no", "0"]);

/**
 * A lenient boolean: `true`/`false`, the strings `"true"/"false"/"yes"/"no"/"1"/"0"` (trimmed,
 * any case), the numbers 1 and 0, and `null` (= false).
 */
export function lenientBool(value: unknown): unknown {
  if (value === null) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value === 1 ? true : value === 0 ? false : value;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return value;
}

/** A lenient integer: numeric strings and whole floats become integers. */
export function lenientInteger(value: unknown): unknown {
  if (typeof value === "string" && /^\s*-?\d+(\.0+)?\s*$/.test(value)) return Number(value.trim());
  return value;
}

/** Returns a copy of `raw` without the named keys whose value is null (an optional value left unset). */
export function dropNullKeys(raw: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out = { ...raw };
  for (const key of keys) if (out[key] === null) delete out[key];
  return out;
}

/** Returns a copy of `raw` with the named keys coerced by `coerce` (absent keys stay absent). */
export function coerceKeys(
  raw: Record<string, unknown>,
  keys: readonly string[],
  coerce: (value: unknown) => unknown,
): Record<string, unknown> {
  const out = { ...raw };
  for (const key of keys) if (Object.hasOwn(out, key)) out[key] = coerce(out[key]);
  return out;
}
