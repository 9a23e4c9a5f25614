/**
 * Output shaping of decision D6: include/exclude top-level fields (keeping `type`)
 * and dropping potentially large fields in CONCISE format.
 */

/** How the caller wants the structured output shaped. */
export interface OutputShape {
  includeFields?: readonly string[];
  excludeFields?: readonly string[];
  concise?: boolean;
  /** Top-level fields dropped in CONCISE format. */
  potentiallyLarge?: ReadonlySet<string>;
}

/**
 * Applies {@link OutputShape} to an output object; non-objects pass through unchanged, and so does an
 * object when the shape drops nothing (no copy field by field on every call, issue #18).
 */
export function shapeOutput(output: unknown, shape: OutputShape): unknown {
  if (typeof output !== "object" || output === null || Array.isArray(output)) return output;
  const dropsNothing =
    (shape.includeFields?.length ?? 0) === 0 && (shape.excludeFields?.length ?? 0) === 0 && !(shape.concise && (shape.potentiallyLarge?.size ?? 0) > 0);
  if (dropsNothing) return output;
  let entries = Object.entries(output as Record<string, unknown>);
  if (shape.includeFields && shape.includeFields.length > 0) {
    const keep = new Set([...shape.includeFields, "type"]);
    entries = entries.filter(([key]) => keep.has(key));
  }
  if (shape.excludeFields && shape.excludeFields.length > 0) {
    const drop = new Set(shape.excludeFields.filter((f) => f !== "type"));
    entries = entries.filter(([key]) => !drop.has(key));
  }
  if (shape.concise && shape.potentiallyLarge) {
    const large = shape.potentiallyLarge;
    entries = entries.filter(([key]) => !large.has(key));
  }
  return Object.fromEntries(entries);
}
