/**
 * Session truncation settings (proto `TruncationConfig`, spec §8.4) and the one resolver of an
 * output limit: per-tool key, then the session default (unless the tool ignores both), then the
 * tool's params, then its built-in limit. Which key and built-in a tool has is its own declaration (`ToolSpec.truncation`).
 */
import { DEFAULT_MAX_OUTPUT_BYTES, type OutputLimitSpec, type ResolvedOutputLimit } from "./output-limit.js";

export { DEFAULT_MAX_OUTPUT_BYTES };
/** read_file's default line window. */
export const DEFAULT_MAX_LINES_READ = 1000;

/** The settings as configured by the host; every field optional. */
export interface TruncationConfigInput {
  defaultMaxOutputBytes?: number;
  perToolMaxOutputBytes?: Record<string, number>;
  maxLinesRead?: number;
}

/** Resolved truncation settings of a session. */
export class TruncationSettings {
  readonly config: Readonly<TruncationConfigInput>;

  constructor(config: TruncationConfigInput = {}) {
    this.config = Object.freeze({
      ...config,
      perToolMaxOutputBytes: Object.freeze({ ...(config.perToolMaxOutputBytes ?? {}) }),
    });
  }

  /** The limit of a call of a tool declaring `spec`, with these params and behaviour version (see `resolveOutputLimit`). */
  resolve<P>(spec: OutputLimitSpec<P>, params: P, contractVersion = ""): ResolvedOutputLimit {
    if (spec.truncationConfig !== "ignored") {
      const perTool = this.config.perToolMaxOutputBytes ?? {};
      const configured = Object.hasOwn(perTool, spec.key) ? perTool[spec.key] : undefined;
      if (configured !== undefined) return { limit: configured, source: "per_tool" };
      if (this.config.defaultMaxOutputBytes !== undefined) return { limit: this.config.defaultMaxOutputBytes, source: "default" };
    }
    const fromParams = spec.fromParams?.(params);
    if (fromParams !== undefined && fromParams !== null) return { limit: fromParams, source: "params" };
    const byVersion = spec.builtinByVersion ?? {};
    return { limit: Object.hasOwn(byVersion, contractVersion) ? byVersion[contractVersion]! : spec.builtin, source: "builtin" };
  }

  /**
   * The limit for a truncation key with a built-in value: {@link resolve} without params.
   * Tools read `ctx.outputLimit` instead, which comes from their declared spec.
   */
  maxOutputBytesFor(key: string, builtin: number = DEFAULT_MAX_OUTPUT_BYTES): number {
    return this.resolve({ key, builtin }, undefined).limit;
  }

  /** read_file's line window. */
  get maxLinesRead(): number {
    return this.config.maxLinesRead ?? DEFAULT_MAX_LINES_READ;
  }
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
