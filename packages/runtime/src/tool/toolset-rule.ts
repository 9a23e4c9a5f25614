/**
 * Toolset rules: finalize-time checks a namespace declares over the whole requested toolset
 * (two tool bundles that must not mix, a tool that needs a companion). A failing rule refuses
 * the finalize with one violation per failure.
 */
import type { ToolsetView } from "./toolset-view.js";

/** One reason a toolset is refused. */
export interface ToolsetRuleFailure {
  /** The model- and host-facing text. */
  message: string;
  /** The violation's `tool_id`; default `(toolset)`. */
  toolId?: string;
  /** The violation's `field_path`; default `tools`. */
  fieldPath?: string;
  expected?: string;
  /** The offending value; serialized as JSON for `bad_value_json`. */
  badValue?: unknown;
  /** The violation's category; default the rule's id. */
  category?: string;
}

/** A rule over the requested toolset. */
export interface ToolsetRule {
  /** Stable id (`file_toolset_conflict`); the default category of its violations. */
  readonly id: string;
  /** The failures of this toolset (empty when it is acceptable). */
  check(toolset: ToolsetView): readonly ToolsetRuleFailure[];
}

/** Declares a toolset rule. */
export function defineToolsetRule(spec: ToolsetRule): ToolsetRule {
  return Object.freeze({ ...spec });
}
