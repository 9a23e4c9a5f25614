/**
 * ToolsetView: what a tool, a reminder or a toolset rule sees of the finalized toolset.
 */
import type { ToolKind } from "./tool-kind.js";

/** One configured tool as others see it: id, client name, kind. */
export interface ToolsetEntry {
  readonly fqId: string;
  readonly clientName: string;
  readonly kind: ToolKind;
}

/** What a tool sees of the rest of the finalized toolset (for descriptions and requirements). */
export interface ToolsetView {
  /** Fully-qualified ids of the configured tools, in config order. */
  readonly toolIds: readonly string[];
  /** Whether any configured tool has this kind. */
  hasKind(kind: ToolKind): boolean;
  /** Whether a tool with this fully-qualified id is configured. */
  hasTool(fqId: string): boolean;
  /** The effective params of a configured tool, or undefined. */
  paramsOf(fqId: string): unknown;
  /** The client-facing name of the first configured tool of a kind, or undefined. */
  clientNameOfKind(kind: ToolKind): string | undefined;
  /** Every configured tool in config order (a subagent's toolset is chosen from these). */
  entries(): readonly ToolsetEntry[];
}
