/**
 * defineTool: how a tool declares itself (id, kind, schemas, params, versions,
 * requirements, description template) and its execute function. Declaration
 * only; finalize and execution live in the session.
 */
import type { Static, TSchema } from "typebox";
import type { ToolKind } from "./tool-kind.js";
import type { ToolsetView } from "./toolset-view.js";
import type { ToolContext } from "./tool-context.js";
import type { ResourceKey } from "./resource.js";
import type { ReminderDefinition } from "./reminder.js";
import type { OutputLimitSpec } from "../output/output-limit.js";

export type { ToolsetView };

const TOOL_BRAND = Symbol.for("@grok-tools/runtime.ToolDefinition");

/** Input of a description or schema builder. */
export interface DescribeInput<P> {
  params: P;
  toolset: ToolsetView;
  contractVersion: string;
}

/** One failed finalize requirement or params check. */
export interface RequirementFailure {
  message: string;
  fieldPath?: string;
  expected?: string;
  /** The offending value; serialized as JSON for `bad_value_json`. */
  badValue?: unknown;
  /** Defaults to `requirements` for requirement checks and `params_constraint` for params checks. */
  category?: string;
}

/** The params resource of a tool: finalize-time configuration from `params_json`. */
export interface ToolParamsSpec<P> {
  /** Stable resource id, shared by a tool and its concise twin (`acme.Shell`). */
  resourceId: string;
  /** TypeBox object schema of the params. */
  schema: TSchema;
  /** Every field with its default; serialized as-is (nulls included). */
  defaults: P;
  /** When true, unknown keys are ignored instead of rejected (the reference's Bash params). */
  ignoreUnknownFields?: boolean;
  /** Semantic checks after the typed parse. */
  check?: (params: P) => RequirementFailure[];
}

/** A field of the output object, as advertised in `ToolInfo.output_fields`. */
export interface OutputFieldInfo {
  description: string;
  /** Dropped from CONCISE output (decision D6). */
  potentiallyLarge?: boolean;
  example?: unknown;
}

/** What a successful tool call returns. */
export interface ToolResult<O> {
  /** The structured output, an object tagged by `type`. */
  output: O;
  /** The text the model sees. */
  promptText: string;
  /** The CONCISE text, where the tool has one. */
  promptTextConcise?: string;
  /** Whether the output was cut to fit a limit. */
  truncated?: boolean;
}

/** A tool's full declaration. */
export interface ToolSpec<I extends TSchema, O extends TSchema, P> {
  /** Unqualified id (`read_file`); the namespace adds its prefix. */
  id: string;
  kind: ToolKind;
  /** Version string reported in `ExecutionMetadata.tool_version`. */
  version?: string;
  /** The model-facing description template, or a builder of it. */
  description: string | ((input: DescribeInput<P>) => string);
  /** One line for UIs. */
  shortDescription?: string;
  /** Input schema; the wire `input_schema_json` is this after name overrides. */
  input: I;
  /** Lets a tool adjust its input schema to its params (bash drops `is_background` when disabled). */
  inputSchemaFor?: (input: DescribeInput<P>) => TSchema;
  /** Output schema: a union of objects tagged by `type`. */
  output: O;
  outputFields?: Record<string, OutputFieldInfo>;
  params?: ToolParamsSpec<P>;
  /**
   * The tool's output limit: its `per_tool_max_output_bytes` key (the canonical tool name) and
   * built-in value (spec §8.4). The call gets the resolved limit as `ctx.outputLimit`, and the
   * description's `{max_output_bytes}` shows the same number. Tools without one are keyed by id
   * with the 40 000 default.
   */
  truncation?: OutputLimitSpec<P>;
  /** Overrides the read-only default of the kind. */
  readOnly?: boolean;
  /** Behaviour versions this tool supports; present only on managed tools. */
  contractVersions?: readonly string[];
  capabilities?: {
    supportsBackground?: boolean | ((params: P) => boolean);
    supportsStreaming?: boolean;
    supportsCancellation?: boolean;
    supportsTimeout?: boolean;
    custom?: string[];
  };
  /** Extra variables for the description template (bash: `max_timeout_ms`, ...). */
  templateVariables?: (input: DescribeInput<P>) => Record<string, unknown>;
  /** Finalize-time requirements on the rest of the toolset (spec §3.3). */
  requires?: (input: DescribeInput<P>) => RequirementFailure[];
  /**
   * What a description that fails to render becomes: `strip` (default) removes the template
   * markers; `raw` keeps the raw text (the reference's kill_task, get_task_output, wait_tasks).
   */
  descriptionRenderFallback?: "strip" | "raw";
  /**
   * Serializable resources (state) the tool reads or writes. Registered when a session is
   * finalized, so persisted and `initial_tool_state_json` values for them are loaded even
   * before the tool first runs.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  resources?: readonly ResourceKey<any>[];
  /** Cross-cutting reminders this tool brings (run once per session, whoever declares them). */
  reminders?: readonly ReminderDefinition[];
  /**
   * Rewrites the raw input object before validation (lenient booleans and integers, aliases). `raw`
   * is the call's own object, parsed for this call: it may be changed in place and returned.
   */
  normalizeInput?: (raw: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Runs the tool. A tool with nothing to wait for may return its result directly: the call is then
   * answered in the same turn, without the promise, cancel listener and deadline timer a body that
   * waits needs (issue #18); a body that returns a promise races the caller's cancel and deadline.
   */
  // Method syntax on purpose: it lets a typed tool be held as an AnyToolDefinition (bivariant parameters).
  execute(input: Static<I>, ctx: ToolContext<P>): Promise<ToolResult<Static<O>>> | ToolResult<Static<O>>;
}

/** A tool definition, branded so that any copy of the runtime recognises it. */
export type ToolDefinition<I extends TSchema = TSchema, O extends TSchema = TSchema, P = unknown> = ToolSpec<I, O, P> & { readonly [TOOL_BRAND]: true };

/** Any tool definition, whatever its generic parameters. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<TSchema, TSchema, any>;

/** Declares a tool. */
export function defineTool<I extends TSchema, O extends TSchema, P = undefined>(spec: ToolSpec<I, O, P>): ToolDefinition<I, O, P> {
  return Object.freeze({ ...spec, [TOOL_BRAND]: true as const });
}

/** True for a tool definition from any copy of the runtime. */
export function isToolDefinition(value: unknown): value is AnyToolDefinition {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[TOOL_BRAND] === true;
}
