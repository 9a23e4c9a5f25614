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
  /** Must satisfy the tool id grammar; `""` is rejected (spec §13.16). */
  nameOverride?: string;
  /** canonical → client parameter names; an empty map means none. */
  paramsNameOverrides?: Record<string, string>;
  /** Present (even `""`) means an override: only managed tools accept one. */
  behaviorVersion?: string;
  /** Replaces the built-in description; still rendered as a template. */
  descriptionOverride?: string;
}

/** A `FinalizeToolServerConfigRequest`. */
export interface FinalizeInput {
  /** The tools in config order; empty means "use the pending pre-finalize config" when there is one. */
  tools: ToolConfigInput[];
  /** Absent or `""` means `current`. */
  behaviorPreset?: string;
  truncation?: TruncationConfigInput;
  /** Reminders are on when this or a SetSystemReminders(true) before finalize says so. */
  systemRemindersEnabled?: boolean;
  /** `{"params":{...},"state":{...}}`; only `state` entries are applied (see Session.finalize). */
  initialToolStateJson?: string;
  /** Names the session's state folder. */
  sessionId?: string;
  /**
   * A warm start: the server replays a finalize it saved, so the params in the state file (which
   * SetToolOptions may have changed since) win over `paramsJson`.
   */
  restoring?: boolean;
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
  | {
      ok: true;
      tools: FinalizedTool[];
      warnings: VersionWarningInfo[];
      /**
       * Set when the toolset is finalized but its state (persisted, seeded by `initial_tool_state_json`,
       * the effective params) could not be written: the file and the OS's reason. The state holds in
       * memory and the next call that commits state writes it again (issue 22.2).
       */
      stateNotSaved?: { file: string; reason: string };
    }
  | { ok: false; message: string; violations: ConfigViolation[] };
