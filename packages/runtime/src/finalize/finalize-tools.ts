/**
 * Validates a finalize request and builds the session's tools (spec §3): wire checks,
 * preset, per-entry id/version/params, duplicate client names, requirements; then
 * names, params, rendered descriptions and renamed schemas.
 */
import type { TSchema } from "typebox";
import type { ToolRegistry, RegisteredTool } from "../registry/tool-registry.js";
import type { DescribeInput, RequirementFailure } from "../tool/define-tool.js";
import { defaultClientName, toolIdError } from "../tool/tool-id.js";
import { firstProblem } from "../validation/validate-value.js";
import { isPlainObject } from "../session/resource-store.js";
import type { TruncationSettings } from "../output/truncation-settings.js";
import { checkPreset, resolveContractVersion } from "./behavior-presets.js";
import type { ConfigViolation, FinalizeInput, FinalizeOutcome, FinalizedTool, VersionWarningInfo } from "./finalize-types.js";
import { FinalizedToolset, buildKindParamMaps } from "./finalized-toolset.js";
import { renderTemplate, substitutePlaceholders } from "./template-renderer.js";

/** `GROK_MAX_WAIT_BLOCK_MS`: the wait cap used in `{max_wait_ms}`. */
export const MAX_WAIT_BLOCK_MS = 600_000;
const MAX_CHARS_PER_LINE = 2000;

/** Session settings that descriptions depend on. */
export interface FinalizeEnvironment {
  truncation: TruncationSettings;
  systemRemindersEnabled: boolean;
}

interface Draft {
  index: number;
  registered: RegisteredTool;
  clientName: string;
  params: unknown;
  contractVersion: string;
  paramNames: Record<string, string>;
  descriptionOverride: string | undefined;
}

/** One violation's `summary()` text: `{tool}: {field}; {message}; expected {e}; got {bad}`. */
export function violationSummary(v: ConfigViolation): string {
  const parts = [v.fieldPath, v.message, v.expected === undefined ? undefined : `expected ${v.expected}`, v.badValueJson === undefined ? undefined : `got ${v.badValueJson}`];
  return `${v.toolId}: ${parts.filter((p) => p !== undefined && p !== "").join("; ")}`;
}

function fail(violations: ConfigViolation[]): FinalizeOutcome {
  return { ok: false, message: violations.map(violationSummary).join("\n"), violations };
}

function json(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/** Validates `input` against `registry` and builds the finalized tools. */
export function finalizeTools(registry: ToolRegistry, input: FinalizeInput, env: FinalizeEnvironment): FinalizeOutcome {
  // §3.1: wire conversion, failing on the first invalid entry.
  const clientObjects: Record<string, unknown>[] = [];
  for (const [i, entry] of input.tools.entries()) {
    let object: Record<string, unknown> = {};
    if (entry.paramsJson !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(entry.paramsJson);
      } catch (error) {
        return fail([{ entryIndex: i, toolId: entry.id, fieldPath: `tools[${i}].params_json`, message: `${entry.id}: tools[${i}].params_json failed to parse JSON: ${(error as Error).message}`, badValueJson: json(entry.paramsJson), category: "params_json_parse" }]);
      }
      if (!isPlainObject(parsed)) {
        return fail([{ entryIndex: i, toolId: entry.id, fieldPath: `tools[${i}].params_json`, message: `${entry.id}: tools[${i}].params_json must be a JSON object`, badValueJson: entry.paramsJson, category: "params_json_not_object" }]);
      }
      object = parsed;
    }
    if (entry.nameOverride !== undefined) {
      const idError = toolIdError(entry.nameOverride);
      if (idError) {
        return fail([{ entryIndex: i, toolId: entry.id, fieldPath: `tools[${i}].name_override`, message: `${entry.id}: tools[${i}].name_override is not a valid tool name (${JSON.stringify(entry.nameOverride)}): ${idError}`, badValueJson: json(entry.nameOverride), category: "name_override_invalid" }]);
      }
    }
    clientObjects.push(object);
  }

  // §3.2.1: the preset.
  const preset = input.behaviorPreset === undefined || input.behaviorPreset === "" ? "current" : input.behaviorPreset;
  const presetCheck = checkPreset(preset);
  if (presetCheck.error) {
    return fail([{ toolId: "(global)", fieldPath: "behavior_preset", message: presetCheck.error, expected: "one of the registered behavior presets", badValueJson: json(preset), category: "behavior_preset" }]);
  }
  const warnings: VersionWarningInfo[] = [];
  if (presetCheck.warning) warnings.push({ fqToolId: "", ...presetCheck.warning });

  // §3.2.2: per entry, collecting every violation.
  const violations: ConfigViolation[] = [];
  const drafts: Draft[] = [];
  const seenIds = new Set<string>();
  for (const [i, entry] of input.tools.entries()) {
    const registered = registry.get(entry.id);
    if (!registered) {
      violations.push({ entryIndex: i, toolId: entry.id, fieldPath: "id", message: "not found in registry", badValueJson: json(entry.id), category: "tool_not_found" });
      continue;
    }
    if (seenIds.has(entry.id)) {
      violations.push({ entryIndex: i, toolId: entry.id, fieldPath: "id", message: `tool "${entry.id}" is listed more than once`, expected: "each tool id at most once", badValueJson: json(entry.id), category: "duplicate_tool_id" });
      continue;
    }
    seenIds.add(entry.id);
    const def = registered.definition;
    const version = resolveContractVersion(preset, entry.id, def.contractVersions, entry.behaviorVersion);
    if (!version.ok) {
      violations.push({ entryIndex: i, toolId: entry.id, fieldPath: "behavior_version", message: version.message, badValueJson: json(entry.behaviorVersion ?? ""), category: "behavior_version" });
      continue;
    }
    if (version.warning) warnings.push({ fqToolId: entry.id, ...version.warning });
    const params = effectiveParams(registered, clientObjects[i] ?? {}, i, violations);
    if (params === INVALID) continue;
    drafts.push({
      index: i,
      registered,
      clientName: entry.nameOverride ?? defaultClientName(entry.id),
      params,
      contractVersion: version.version,
      paramNames: { ...(entry.paramsNameOverrides ?? {}) },
      descriptionOverride: entry.descriptionOverride,
    });
  }
  if (violations.length > 0) return fail(violations);

  // §3.2.3: duplicate client names, in config order.
  const firstByName = new Map<string, string>();
  for (const draft of drafts) {
    const first = firstByName.get(draft.clientName);
    if (first !== undefined) {
      violations.push({ entryIndex: draft.index, toolId: draft.registered.fqId, fieldPath: "name_override", message: `duplicate client_name "${draft.clientName}": already used by ${first}. Use name_override to give each tool a unique client-facing name.`, expected: "a unique client-facing tool name", badValueJson: json(draft.clientName), category: "duplicate_client_name" });
    } else firstByName.set(draft.clientName, draft.registered.fqId);
  }
  if (violations.length > 0) return fail(violations);

  // §3.2.4: the standard and hashline file bundles never mix.
  const standard = ["GrokBuild:read_file", "GrokBuild:search_replace", "GrokBuild:grep"];
  if (drafts.some((d) => standard.includes(d.registered.fqId)) && drafts.some((d) => d.registered.namespace === "GrokBuildHashline")) {
    return fail([{ toolId: "(file-toolset)", fieldPath: "tools", message: "mixed standard and hashline file tools are not allowed. Use either the standard bundle (read_file, search_replace, grep) or the hashline bundle (hashline_read, hashline_edit, hashline_grep), not both.", category: "file_toolset_conflict" }]);
  }

  // A provisional toolset so that requirements and descriptions can see the others.
  const provisional = new FinalizedToolset(drafts.map((d) => provisionalTool(d)));

  // §3.2.5: requirements.
  for (const draft of drafts) {
    const failures = draft.registered.definition.requires?.(describeInput(draft, provisional)) ?? [];
    for (const failure of failures) violations.push(toViolation(draft, failure, "requirements"));
  }
  if (violations.length > 0) return fail(violations);

  const tools = drafts.map((draft) => buildTool(draft, provisional, env));
  return { ok: true, tools, warnings };
}

const INVALID = Symbol("invalid");

/** Defaults shallow-merged with the client object, then typed and semantic checks. */
function effectiveParams(registered: RegisteredTool, client: Record<string, unknown>, index: number, violations: ConfigViolation[]): unknown {
  const spec = registered.definition.params;
  if (!spec) return client;
  const merged: Record<string, unknown> = { ...(spec.defaults as Record<string, unknown>) };
  for (const [key, value] of Object.entries(client)) {
    const known = Object.hasOwn((spec.schema as { properties?: object }).properties ?? {}, key);
    if (!known && spec.ignoreUnknownFields) continue;
    merged[key] = value;
  }
  const problem = firstProblem(spec.schema, merged);
  if (problem) {
    violations.push({
      entryIndex: index,
      toolId: registered.fqId,
      ...(problem.path === "" ? {} : { fieldPath: `params.${problem.path}` }),
      message: problem.message,
      ...(problem.expected === undefined ? {} : { expected: problem.expected }),
      ...(problem.value === undefined ? {} : { badValueJson: json(problem.value) }),
      category: problem.category,
    });
    return INVALID;
  }
  const failures = spec.check?.(merged as never) ?? [];
  for (const failure of failures) {
    violations.push({ entryIndex: index, toolId: registered.fqId, message: failure.message, category: failure.category ?? "params_constraint", ...optionalFields(failure) });
  }
  return failures.length > 0 ? INVALID : merged;
}

function optionalFields(failure: RequirementFailure): Partial<ConfigViolation> {
  return {
    ...(failure.fieldPath === undefined ? {} : { fieldPath: failure.fieldPath }),
    ...(failure.expected === undefined ? {} : { expected: failure.expected }),
    ...(failure.badValue === undefined ? {} : { badValueJson: json(failure.badValue) }),
  };
}

function toViolation(draft: Draft, failure: RequirementFailure, category: string): ConfigViolation {
  return { entryIndex: draft.index, toolId: draft.registered.fqId, message: failure.message, category: failure.category ?? category, ...optionalFields(failure) };
}

function describeInput(draft: Draft, toolset: FinalizedToolset): DescribeInput<unknown> {
  return { params: draft.params, toolset, contractVersion: draft.contractVersion };
}

function provisionalTool(draft: Draft): FinalizedTool {
  const def = draft.registered.definition;
  const reverse = Object.fromEntries(Object.entries(draft.paramNames).map(([canonical, client]) => [client, canonical]));
  return {
    fqId: draft.registered.fqId,
    namespace: draft.registered.namespace,
    definition: def,
    clientName: draft.clientName,
    params: draft.params,
    contractVersion: draft.contractVersion,
    description: "",
    inputSchema: {},
    canonicalInputSchema: def.input,
    paramNames: draft.paramNames,
    reverseParamNames: reverse,
  };
}

/** Builds the model-facing description and schema of one tool (spec §2.7, §2.8). */
function buildTool(draft: Draft, toolset: FinalizedToolset, env: FinalizeEnvironment): FinalizedTool {
  const def = draft.registered.definition;
  const input = describeInput(draft, toolset);
  const canonicalSchema: TSchema = def.inputSchemaFor?.(input) ?? def.input;
  const context = templateContext(toolset, env, def.templateVariables?.(input) ?? {});
  const placeholders = {
    maxOutputBytes: env.truncation.maxOutputBytesFor(draft.clientName),
    maxLinesRead: env.truncation.maxLinesRead,
    maxWaitMs: MAX_WAIT_BLOCK_MS,
    maxCharsPerLine: MAX_CHARS_PER_LINE,
  };
  const raw = draft.descriptionOverride ?? (typeof def.description === "function" ? def.description(input) : def.description);
  const description = substitutePlaceholders(renderTemplate(raw, context), placeholders);
  const inputSchema = renameSchema(renderSchemaDescriptions(structuredClone(canonicalSchema) as Record<string, unknown>, context, placeholders), draft.paramNames);
  return { ...provisionalTool(draft), description, inputSchema, canonicalInputSchema: canonicalSchema };
}

function templateContext(toolset: FinalizedToolset, env: FinalizeEnvironment, extras: Record<string, unknown>): Record<string, unknown> {
  return {
    tools: { by_kind: toolset.kindToolNames() },
    params: Object.fromEntries(buildKindParamMaps(toolset.tools)),
    is_windows: process.platform === "win32",
    shell_uses_semicolon: false,
    has_unix_utilities: process.platform !== "win32",
    system_reminders_enabled: env.systemRemindersEnabled,
    ...extras,
  };
}

/** Renders property descriptions recursively; top-level ones also get the placeholders. */
function renderSchemaDescriptions(
  schema: Record<string, unknown>,
  context: Record<string, unknown>,
  placeholders: Parameters<typeof substitutePlaceholders>[1],
  topLevel = true,
): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (properties) {
    for (const property of Object.values(properties)) {
      if (typeof property.description === "string") {
        const hadWait = property.description.includes("{max_wait_ms}");
        let text = renderTemplate(property.description, context);
        if (topLevel) text = substitutePlaceholders(text, placeholders);
        property.description = text;
        if (topLevel && hadWait) property.maximum = placeholders.maxWaitMs;
      }
      renderSchemaDescriptions(property, context, placeholders, false);
    }
  }
  if (schema.items && typeof schema.items === "object") renderSchemaDescriptions(schema.items as Record<string, unknown>, context, placeholders, false);
  return schema;
}

/** Renames top-level `properties` keys and `required` entries (canonical → client). */
export function renameSchema(schema: Record<string, unknown>, names: Readonly<Record<string, string>>): Record<string, unknown> {
  if (Object.keys(names).length === 0) return schema;
  const out: Record<string, unknown> = { ...schema };
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (properties) out.properties = Object.fromEntries(Object.entries(properties).map(([key, value]) => [names[key] ?? key, value]));
  if (Array.isArray(schema.required)) out.required = (schema.required as string[]).map((key) => names[key] ?? key);
  return out;
}
