/**
 * The shared definition of both bash presets (GrokBuild and GrokBuildConcise): params,
 * description, per-params input schema, requirements, lenient input, and execution.
 */
import { CURRENT_VERSION, Type, defineTool, type DescribeInput, type RequirementFailure, type TSchema } from "@grok-tools/runtime";
import { lenientBool, lenientOptionalInteger, normalizeKey } from "@grok-tools/runtime/helpers";
import {
  BASH_DESCRIPTION_BACKGROUND_DISABLED,
  BASH_DESCRIPTION_BACKGROUND_ENABLED,
  COMMAND_PROPERTY_DESCRIPTION,
  DESCRIPTION_PROPERTY_DESCRIPTION,
  IS_BACKGROUND_PROPERTY_DESCRIPTION,
} from "./description.js";
import { BASH_OUTPUT_LIMIT, runTerminalCommand, type BashPreset } from "./execute.js";
import { BASH_PARAMS_DEFAULTS, BashInput, BashParams, BashToolOutput, SCHEMA_DEFAULT_TIMEOUT_MS } from "./schema.js";
import { autoBackgroundEnabled, effectiveDefaultTimeoutMs, effectiveMaxTimeoutMs, maxTimeoutConfigured } from "./timeouts.js";
import { LEGACY_0_4_10 } from "../shared/versions.js";

/** The params resource id shared by both presets. */
export const BASH_PARAMS_RESOURCE_ID = "grok_build.Bash";

/** The params check: no NUL in the command prefix; auto-background needs background execution. */
export function checkBashParams(params: BashParams): RequirementFailure[] {
  if (params.cmd_prefix !== null && params.cmd_prefix.includes("\0")) {
    return [
      {
        message: "cmd_prefix must not contain a NUL character",
        fieldPath: "params.cmd_prefix",
        expected: "a shell command without NUL characters",
        badValue: params.cmd_prefix,
        category: "params_constraint",
      },
    ];
  }
  if (params.auto_background_on_timeout && !params.enabled_background) {
    return [
      {
        message: "auto_background_on_timeout requires enabled_background to be true",
        fieldPath: "params.auto_background_on_timeout",
        expected: "false (when enabled_background is false)",
        badValue: true,
        category: "params_constraint",
      },
    ];
  }
  return [];
}

/** With background enabled, a background_task_action and a kill_task_action tool must be present (spec §3.3). */
export function bashRequirements({ params, toolset }: DescribeInput<BashParams>): RequirementFailure[] {
  if (!params.enabled_background) return [];
  const missing: string[] = [];
  if (!toolset.hasKind("background_task_action")) missing.push("GrokBuild:get_task_output");
  if (!toolset.hasKind("kill_task_action")) missing.push("GrokBuild:kill_task");
  if (missing.length === 0) return [];
  return [
    {
      message: `enabled_background=true requires ${missing.join(" and ")} so background bash tasks can be observed and cancelled`,
      fieldPath: "params.enabled_background",
      expected: "set enabled_background=false or include get_task_output and kill_task",
      badValue: true,
    },
  ];
}

/** The model-facing input schema for these params (timeout text and bounds, `is_background` only when enabled). */
export function bashInputSchemaFor({ params }: DescribeInput<BashParams>): TSchema {
  const maxMs = effectiveMaxTimeoutMs(params);
  const defaultMs = effectiveDefaultTimeoutMs(params);
  const name = "${{ params.execute.timeout }}";
  const timeoutDescription = !params.enabled_background
    ? `Optional ${name} in milliseconds (max ${maxMs}). Default: ${defaultMs}.`
    : autoBackgroundEnabled(params)
      ? `Optional ${name} in milliseconds (max ${maxMs}). Default: ${defaultMs}; foreground commands exceeding it are automatically backgrounded.`
      : `Optional ${name} in milliseconds (max ${maxMs}). Default: ${defaultMs}, enforced for foreground commands only.`;
  const timeout = Type.Optional(
    Type.Integer({
      minimum: 0,
      default: SCHEMA_DEFAULT_TIMEOUT_MS,
      description: timeoutDescription,
      ...(maxTimeoutConfigured(params) ? { maximum: maxMs } : {}),
    }),
  );
  const command = Type.String({ description: COMMAND_PROPERTY_DESCRIPTION });
  const description = Type.String({ description: DESCRIPTION_PROPERTY_DESCRIPTION });
  if (!params.enabled_background) return Type.Object({ command, timeout, description });
  return Type.Object({
    command,
    timeout,
    description,
    is_background: Type.Optional(Type.Boolean({ default: false, description: IS_BACKGROUND_PROPERTY_DESCRIPTION })),
  });
}

/** Defines `run_terminal_cmd` for one preset. */
export function defineBashTool(preset: BashPreset) {
  return defineTool({
    id: "run_terminal_cmd",
    kind: "execute",
    description: ({ params }: DescribeInput<BashParams>) =>
      params.enabled_background ? BASH_DESCRIPTION_BACKGROUND_ENABLED : BASH_DESCRIPTION_BACKGROUND_DISABLED,
    shortDescription: "Run a shell command and return its output.",
    input: BashInput,
    inputSchemaFor: bashInputSchemaFor,
    output: BashToolOutput,
    outputFields: {
      output: { description: "The command's output (head and tail when truncated).", potentiallyLarge: true },
      output_for_prompt: { description: "The prompt text of the result.", potentiallyLarge: true },
      exit_code: { description: "Exit code, or -1 when the command was killed." },
      signal: { description: "Why the command ended early (timeout, cancelled, signal N, output_limit)." },
      output_file: { description: "Log file with the full output." },
      task_id: { description: "Background task id (background starts)." },
    },
    params: { resourceId: BASH_PARAMS_RESOURCE_ID, schema: BashParams, defaults: BASH_PARAMS_DEFAULTS, ignoreUnknownFields: true, check: checkBashParams },
    truncation: BASH_OUTPUT_LIMIT,
    ...(preset === "default" ? { contractVersions: [CURRENT_VERSION, LEGACY_0_4_10] } : {}),
    capabilities: { supportsBackground: (p: BashParams) => p.enabled_background, supportsCancellation: true, supportsTimeout: true },
    templateVariables: ({ params }: DescribeInput<BashParams>) => ({
      auto_background_on_timeout: autoBackgroundEnabled(params),
      max_timeout_ms: effectiveMaxTimeoutMs(params),
      default_timeout_ms: effectiveDefaultTimeoutMs(params),
      max_timeout_configured: maxTimeoutConfigured(params),
    }),
    requires: bashRequirements,
    normalizeInput: (raw) => {
      const input = { ...raw };
      normalizeKey(input, "timeout", lenientOptionalInteger);
      normalizeKey(input, "is_background", lenientBool);
      return input;
    },
    execute: (input, ctx) => runTerminalCommand(input, ctx, preset),
  });
}
