/**
 * Session truncation settings (proto `TruncationConfig`, spec §8.4) and the one resolver of an
 * output limit: per-tool key, then the session default (unless the tool ignores both), then the
 * tool's params, then its built-in limit. Which key and built-in a tool has is its own declaration (`ToolSpec.truncation`).
 */
import type { OutputLimitSpec, ResolvedOutputLimit } from "./output-limit.js";

/** Built-in ceiling used where a tool has no limit of its own. */
export const DEFAULT_MAX_OUTPUT_BYTES = 40_000;
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
