/**
 * Session truncation settings (proto `TruncationConfig`, spec §8.4): per-tool key,
 * then the session default, then the tool's built-in limit.
 */

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

  /** The output limit for a runtime key (`run_terminal_cmd`, `get_command_or_subagent_output`, ...). */
  maxOutputBytesFor(key: string, builtin: number = DEFAULT_MAX_OUTPUT_BYTES): number {
    const perTool = this.config.perToolMaxOutputBytes?.[key];
    if (perTool !== undefined && Object.hasOwn(this.config.perToolMaxOutputBytes ?? {}, key)) return perTool;
    return this.config.defaultMaxOutputBytes ?? builtin;
  }

  /** read_file's line window. */
  get maxLinesRead(): number {
    return this.config.maxLinesRead ?? DEFAULT_MAX_LINES_READ;
  }
}
