/**
 * The one owner of a tool's output limit (proto `TruncationConfig`, spec §8.4): a tool declares its
 * truncation key and built-in limit in its spec, and `resolveOutputLimit` (truncation-settings) turns that, the
 * session's truncation settings and the tool's params into the limit of a call. Finalize fills the
 * description's `{max_output_bytes}` from the same resolver (`describedOutputLimit`), so the
 * number a model reads is the number its output is cut at. Applying the limit is the tool's job.
 */

/** Built-in ceiling used where a tool has no limit of its own. */
export const DEFAULT_MAX_OUTPUT_BYTES = 40_000;

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
