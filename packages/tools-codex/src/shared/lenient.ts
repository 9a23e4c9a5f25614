/**
 * Lenient input values of the reference (spec §4.0): booleans given as strings or numbers.
 */

/** `true`/`false`, `"yes"`/`"no"`/`"1"`/`"0"` (any case, trimmed), 1/0 and null (= false); anything else unchanged. */
export function lenientBool(value: unknown): unknown {
  if (value === null) return false;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (word === "true" || word === "yes" || word === "1") return true;
    if (word === "false" || word === "no" || word === "0") return false;
  }
  return value;
}
