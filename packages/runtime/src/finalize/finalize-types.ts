/**
 * The runtime's view of a finalize request and its outcome, independent of the proto.
 */
import type { TSchema } from "typebox";
import type { AnyToolDefinition } from "../tool/define-tool.js";
import type { TruncationConfigInput } from "../output/truncation-settings.js";

/** One `ToolConfigEntry`. */
export interface ToolConfigInput {
  id: string;
  /** Present-but-empty counts as present (and fails to parse), as in the reference. */
  paramsJson?: string;
  nameOverride?: string;
  paramsNameOverrides?: Record<string, string>;
  behaviorVersion?: string;
  descriptionOverride?: string;
}

/** A `FinalizeToolServerConfigRequest`. */
export interface FinalizeInput {
  tools: ToolConfigInput[];
  behaviorPreset?: string;
  truncation?: TruncationConfigInput;
  systemRemindersEnabled?: boolean;
  initialToolStateJson?: string;
  sessionId?: string;
}

/** A `FinalizeConfigViolation`. */
export interface ConfigViolation {
  entryIndex?: number;
  toolId: string;
  fieldPath?: string;
  message: string;
  expected?: string;
  badValueJson?: string;
  category: string;
}

/** A `VersionWarning`. */
export interface VersionWarningInfo {
  fqToolId: string;
  deprecatedVersion: string;
  replacement: string;
  message: string;
}

/** A tool as enabled in a session: names, params, rendered description and schema. */
export interface FinalizedTool {
  readonly fqId: string;
  readonly namespace: string;
  readonly definition: AnyToolDefinition;
  /** The name the model calls it by. */
  readonly clientName: string;
  /** Effective params (defaults shallow-merged with the entry's params_json). */
  readonly params: unknown;
  /** Resolved behaviour version, or "" for unmanaged tools. */
  readonly contractVersion: string;
  /** Rendered model-facing description. */
  readonly description: string;
  /** The input schema the model sees (renamed, rendered). */
  readonly inputSchema: Record<string, unknown>;
  /** The canonical input schema used for validation. */
  readonly canonicalInputSchema: TSchema;
  /** canonical → client parameter names of this tool. */
  readonly paramNames: Readonly<Record<string, string>>;
  /** client → canonical parameter names of this tool. */
  readonly reverseParamNames: Readonly<Record<string, string>>;
}

/** Outcome of a finalize. */
export type FinalizeOutcome =
  | { ok: true; tools: FinalizedTool[]; warnings: VersionWarningInfo[] }
  | { ok: false; message: string; violations: ConfigViolation[] };
