/**
 * Input, output and params schemas of `run_terminal_cmd` (both presets). Types derive
 * from the schemas.
 */
import { Type, type Static } from "@grok-tools/runtime";
import {
  COMMAND_PROPERTY_DESCRIPTION,
  DESCRIPTION_PROPERTY_DESCRIPTION,
  IS_BACKGROUND_PROPERTY_DESCRIPTION,
  TIMEOUT_PROPERTY_DESCRIPTION,
} from "./description.js";

/** The schema's advertised foreground default (omitted ≠ this value: see the timeout resolution). */
export const SCHEMA_DEFAULT_TIMEOUT_MS = 120_000;

/** `BashToolInput`. */
export const BashInput = Type.Object({
  command: Type.String({ description: COMMAND_PROPERTY_DESCRIPTION }),
  timeout: Type.Optional(Type.Integer({ minimum: 0, default: SCHEMA_DEFAULT_TIMEOUT_MS, description: TIMEOUT_PROPERTY_DESCRIPTION })),
  description: Type.String({ description: DESCRIPTION_PROPERTY_DESCRIPTION }),
  is_background: Type.Optional(Type.Boolean({ default: false, description: IS_BACKGROUND_PROPERTY_DESCRIPTION })),
});
export type BashInput = Static<typeof BashInput>;

/** `grok_build.Bash` params (unknown keys ignored). */
export const BashParams = Type.Object({
  timeout_secs: Type.Union([Type.Number(), Type.Null()]),
  max_timeout_secs: Type.Union([Type.Number(), Type.Null()]),
  output_byte_limit: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  cmd_prefix: Type.Union([Type.String(), Type.Null()]),
  enabled_background: Type.Boolean(),
  auto_background_on_timeout: Type.Boolean(),
  foreground_block_budget_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  max_block_until_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  allow_background_operator: Type.Boolean(),
  surface_bg_completion_reminders: Type.Boolean(),
});
export type BashParams = Static<typeof BashParams>;

/** Every params field with its default (serialized as-is, nulls included). */
export const BASH_PARAMS_DEFAULTS: BashParams = {
  timeout_secs: null,
  max_timeout_secs: null,
  output_byte_limit: null,
  cmd_prefix: null,
  enabled_background: true,
  auto_background_on_timeout: false,
  foreground_block_budget_ms: null,
  max_block_until_ms: null,
  allow_background_operator: true,
  surface_bg_completion_reminders: true,
};

/** A foreground result (`BashOutput`; text fields are strings per decision D6). */
export const BashOutputSchema = Type.Object({
  type: Type.Literal("Bash"),
  output: Type.String(),
  output_for_prompt: Type.String(),
  exit_code: Type.Integer(),
  command: Type.String(),
  truncated: Type.Boolean(),
  signal: Type.Union([Type.String(), Type.Null()]),
  timed_out: Type.Boolean(),
  description: Type.Union([Type.String(), Type.Null()]),
  current_dir: Type.String(),
  output_file: Type.String(),
  total_bytes: Type.Integer(),
  was_bare_echo: Type.Optional(Type.Boolean()),
});
export type BashOutputValue = Static<typeof BashOutputSchema>;

/** A background start (`BackgroundTaskStarted`). */
export const BackgroundTaskStartedSchema = Type.Object({
  type: Type.Literal("BackgroundTaskStarted"),
  task_id: Type.String(),
  task_type: Type.String(),
  output_file: Type.String(),
  status: Type.String(),
  command: Type.String(),
  summary: Type.String(),
  retrieval_hint: Type.String(),
  pid: Type.Optional(Type.Integer()),
});
export type BackgroundTaskStartedValue = Static<typeof BackgroundTaskStartedSchema>;

/** The tool's output: foreground result or background start. */
export const BashToolOutput = Type.Union([BashOutputSchema, BackgroundTaskStartedSchema]);
export type BashToolOutput = Static<typeof BashToolOutput>;
