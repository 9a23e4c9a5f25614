/**
 * Input normalization and advertised output fields shared by `GrokBuild:search_replace` and its
 * concise twin `GrokBuildConcise:search_replace` (the same edit; only descriptions and texts differ).
 */
import { coerceKeys, lenientBool } from "@grok-tools/runtime/helpers";

/** Output fields shared by both variants. */
export const SEARCH_REPLACE_OUTPUT_FIELDS = {
  EditsApplied: { description: "The replacement, the prompt texts, the absolute path and per-edit line details" },
};

/** Lenient `replace_all`, as the reference. */
export const normalizeSearchReplaceInput = (raw: Record<string, unknown>): Record<string, unknown> => coerceKeys(raw, ["replace_all"], lenientBool);
