/**
 * The one owner of a tool's output limit (proto `TruncationConfig`, spec §8.4): a tool declares its
 * truncation key and built-in limit in its spec, and {@link resolveOutputLimit} turns that, the
 * session's truncation settings and the tool's params into the limit of a call. Finalize fills the
 * description's `{max_output_bytes}` from the same resolver ({@link describedOutputLimit}), so the
 * number a model reads is the number its output is cut at. Applying the limit is the tool's job.
 */
import { DEFAULT_MAX_OUTPUT_BYTES, type TruncationSettings } from "./truncation-settings.js";

/** How a tool's output limit is configured. */
export interface OutputLimitSpec<P = unknown> {
  /**
   * The `per_tool_max_output_bytes` key: the tool's canonical name (its id, such as
   * `run_terminal_cmd`), never a client name, so a `name_override` does not move it.
   */
  key: string;
  /** The limit when nothing configures one (in the unit the tool counts: bytes or characters). */
  builtin: number;
  /** The built-in limit of a behaviour version where it differs from `builtin` (`{"legacy-0.4.10": 40000}`). */
  builtinByVersion?: Readonly<Record<string, number>>;
  /** A limit from the tool's own params (bash's `output_byte_limit`), which replaces `builtin`. */
  fromParams?: (params: P) => number | null | undefined;
  /**
   * `"ignored"` for a tool whose limit is its own params and built-in only (grep, list_dir: spec §8.4),
   * so `per_tool_max_output_bytes` and `default_max_output_bytes` do not move it. Declaring the limit
   * still makes `{max_output_bytes}` in a description (an override's) the number the tool applies.
   */
  truncationConfig?: "applies" | "ignored";
  /**
   * What the description states when nothing configures the limit, where that differs from
   * `builtin`. The reference's bash description says 40000 while its default budget is 20 000
   * characters; kept so unconfigured descriptions stay byte-identical. Any configured limit is
   * described exactly as applied.
   */
  describedBuiltin?: number;
}

/** Where a resolved limit came from. */
export type OutputLimitSource = "per_tool" | "default" | "params" | "builtin";

/** A call's output limit. */
export interface ResolvedOutputLimit {
  readonly limit: number;
  readonly source: OutputLimitSource;
}

/** The spec of a tool that declares none: keyed by its id, with the proto's 40 000 default. */
export function fallbackOutputLimitSpec(toolId: string): OutputLimitSpec {
  return { key: toolId, builtin: DEFAULT_MAX_OUTPUT_BYTES };
}

/**
 * The limit of a call: `per_tool_max_output_bytes[key]`, else `default_max_output_bytes` (both
 * skipped when the spec ignores the truncation config), else the tool's params limit, else its
 * built-in one for the call's behaviour version (spec §8.4 order). The same as `settings.resolve`.
 */
export function resolveOutputLimit<P>(settings: TruncationSettings, spec: OutputLimitSpec<P>, params: P, contractVersion = ""): ResolvedOutputLimit {
  return settings.resolve(spec, params, contractVersion);
}

/** The number a description's `{max_output_bytes}` shows: the resolved limit (see `describedBuiltin`). */
export function describedOutputLimit<P>(settings: TruncationSettings, spec: OutputLimitSpec<P>, params: P, contractVersion = ""): number {
  const resolved = resolveOutputLimit(settings, spec, params, contractVersion);
  return resolved.source === "builtin" ? (spec.describedBuiltin ?? resolved.limit) : resolved.limit;
}
