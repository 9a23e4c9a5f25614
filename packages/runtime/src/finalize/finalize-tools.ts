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
import { isPlainObject, isSafeKey } from "../core/plain-object.js";
import { wholeNumberFromEnv } from "../core/host-facts.js";
import type { TruncationSettings } from "../output/truncation-settings.js";
import { fallbackOutputLimitSpec } from "../output/output-limit.js";
import { describedOutputLimit } from "../output/truncation-settings.js";
import { parseJsonLikeSerde } from "../validation/serde-json-error.js";
import { CURRENT_VERSION, resolveContractVersion, versionCatalogOf, type VersionCatalog } from "./behavior-presets.js";
import { namespaceFlags, namespaceToolsetRules } from "./namespace-contributions.js";
import type { ConfigViolation, FinalizeInput, FinalizeOutcome, FinalizedTool, VersionWarningInfo } from "./finalize-types.js";
import { FinalizedToolset } from "./finalized-toolset.js";
import { renderTemplate, stripTemplateMarkers, substitutePlaceholders, type PlaceholderValues } from "./template-renderer.js";

/** Default of `GROK_MAX_WAIT_BLOCK_MS`: the wait cap used in `{max_wait_ms}`. */
export const MAX_WAIT_BLOCK_MS = 600_000;

/** The wait cap now: `GROK_MAX_WAIT_BLOCK_MS` when it is a whole number, else {@link MAX_WAIT_BLOCK_MS}. */
export function maxWaitBlockMs(env: NodeJS.ProcessEnv = process.env): number {
  return wholeNumberFromEnv("GROK_MAX_WAIT_BLOCK_MS", MAX_WAIT_BLOCK_MS, 0, env);
}
/** The fixed `{max_chars_per_line}` display value. */
const MAX_CHARS_PER_LINE = 2000;

/** Session settings that descriptions depend on. */
export interface FinalizeEnvironment {
  truncation: TruncationSettings;
  systemRemindersEnabled: boolean;
  /** Presets and version lifecycles; by default those the registered namespaces declare. */
  catalog?: VersionCatalog;
}

/** The environment with what the registered namespaces bring. */
interface ResolvedEnvironment extends FinalizeEnvironment {
  flags: Record<string, unknown>;
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
  const parts = [
    v.fieldPath,
    v.message,
    v.expected === undefined ? undefined : `expected ${v.expected}`,
    v.badValueJson === undefined ? undefined : `got ${v.badValueJson}`,
  ];
  return `${v.toolId}: ${parts.filter((p) => p !== undefined).join("; ")}`;
}

/** The response message of a failed finalize: the violations' summaries, one per line. */
function fail(violations: ConfigViolation[], message?: string): FinalizeOutcome {
  return { ok: false, message: message ?? violations.map(violationSummary).join("\n"), violations };
}

function json(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/** Validates `input` against `registry` and builds the finalized tools. */
export function finalizeTools(registry: ToolRegistry, input: FinalizeInput, env: FinalizeEnvironment): FinalizeOutcome {
  // §3.1: wire conversion, failing on the first invalid entry. The message is the entry error's
  // Display text, which already names the tool and the field.
  const clientObjects: (Record<string, unknown> | undefined)[] = [];
  for (const [i, entry] of input.tools.entries()) {
    let object: Record<string, unknown> | undefined;
    if (entry.paramsJson !== undefined) {
      const parsed = parseJsonLikeSerde(entry.paramsJson);
      const fieldPath = `tools[${i}].params_json`;
      if (!parsed.ok) {
        const message = `${entry.id}: ${fieldPath} failed to parse JSON: ${parsed.message}`;
        return fail(
          [{ entryIndex: i, toolId: entry.id, fieldPath, message, expected: "a JSON object", badValueJson: entry.paramsJson, category: "params_json_parse" }],
          message,
        );
      }
      if (!isPlainObject(parsed.value)) {
        const message = `${entry.id}: ${fieldPath} must be a JSON object`;
        return fail(
          [
            {
              entryIndex: i,
              toolId: entry.id,
              fieldPath,
              message,
              expected: "a JSON object",
              badValueJson: json(parsed.value),
              category: "params_json_not_object",
            },
          ],
          message,
        );
      }
      object = parsed.value;
    }
    if (entry.nameOverride !== undefined) {
      const idError = toolIdError(entry.nameOverride);
      if (idError) {
        const fieldPath = `tools[${i}].name_override`;
        const message = `${entry.id}: ${fieldPath} is not a valid tool name (${JSON.stringify(entry.nameOverride)}): ${idError}`;
        return fail(
          [
            {
              entryIndex: i,
              toolId: entry.id,
              fieldPath,
              message,
              expected: "a valid tool name",
              badValueJson: json(entry.nameOverride),
              category: "name_override_invalid",
            },
          ],
          message,
        );
      }
    }
    clientObjects.push(object);
  }

  // §3.2.1: the preset.
  const catalog = env.catalog ?? versionCatalogOf(registry.namespaces);
  const preset = input.behaviorPreset === undefined || input.behaviorPreset === "" ? CURRENT_VERSION : input.behaviorPreset;
  if (!Object.hasOwn(catalog.presets, preset)) {
    return fail([
      {
        toolId: "(global)",
        fieldPath: "behavior_preset",
        message: `unknown behavior_preset: "${preset}"`,
        expected: "one of the registered behavior presets",
        badValueJson: json(preset),
        category: "behavior_preset",
      },
    ]);
  }
  const warnings: VersionWarningInfo[] = [];

  // §3.2.2: per entry, collecting every violation.
  const violations: ConfigViolation[] = [];
  const drafts: Draft[] = [];
  for (const [i, entry] of input.tools.entries()) {
    const registered = registry.get(entry.id);
    if (!registered) {
      violations.push({
        entryIndex: i,
        toolId: entry.id,
        fieldPath: "id",
        message: "not found in registry",
        badValueJson: json(entry.id),
        category: "tool_not_found",
      });
      continue;
    }
    const def = registered.definition;
    const version = resolveContractVersion(preset, entry.id, def.contractVersions, entry.behaviorVersion, catalog);
    if (!version.ok) {
      violations.push({
        entryIndex: i,
        toolId: entry.id,
        fieldPath: "behavior_version",
        message: version.message,
        badValueJson: json(entry.behaviorVersion ?? ""),
        category: "behavior_version",
      });
      continue;
    }
    for (const warning of version.warnings) {
      if (!warnings.some((w) => w.fqToolId === warning.fqToolId && w.deprecatedVersion === warning.deprecatedVersion)) warnings.push(warning);
    }
    const params = effectiveParams(registered, clientObjects[i], i, violations);
    if (params === INVALID) continue;
    drafts.push({
      index: i,
      registered,
      clientName: entry.nameOverride ?? defaultClientName(entry.id),
      params,
      contractVersion: version.version,
      paramNames: safeNameMap(entry.paramsNameOverrides),
      descriptionOverride: entry.descriptionOverride,
    });
  }
  if (violations.length > 0) return fail(violations);

  // §3.2.3: duplicate client names, in config order; then (our addition) the same fq id twice
  // under different names, which the reference would not survive.
  const firstByName = new Map<string, string>();
  for (const draft of drafts) {
    const first = firstByName.get(draft.clientName);
    if (first !== undefined) {
      violations.push({
        entryIndex: draft.index,
        toolId: draft.registered.fqId,
        fieldPath: "name_override",
        message: `duplicate client_name "${draft.clientName}": already used by ${first}. Use name_override to give each tool a unique client-facing name.`,
        expected: "a unique client-facing tool name",
        badValueJson: json(draft.clientName),
        category: "duplicate_client_name",
      });
    } else firstByName.set(draft.clientName, draft.registered.fqId);
  }
  if (violations.length > 0) return fail(violations);
  const seenIds = new Set<string>();
  for (const draft of drafts) {
    if (seenIds.has(draft.registered.fqId)) {
      violations.push({
        entryIndex: draft.index,
        toolId: draft.registered.fqId,
        fieldPath: "id",
        message: `tool "${draft.registered.fqId}" is listed more than once`,
        expected: "each tool id at most once",
        badValueJson: json(draft.registered.fqId),
        category: "duplicate_tool_id",
      });
    }
    seenIds.add(draft.registered.fqId);
  }
  if (violations.length > 0) return fail(violations);

  // A provisional toolset so that requirements and descriptions can see the others.
  const provisional = new FinalizedToolset(drafts.map((d) => provisionalTool(d)));

  // §3.2.4: the toolset rules of the registered namespaces (bundles that never mix, ...).
  for (const rule of namespaceToolsetRules(registry)) {
    for (const failure of rule.check(provisional)) {
      violations.push({
        toolId: failure.toolId ?? "(toolset)",
        fieldPath: failure.fieldPath ?? "tools",
        message: failure.message,
        ...(failure.expected === undefined ? {} : { expected: failure.expected }),
        ...(failure.badValue === undefined ? {} : { badValueJson: json(failure.badValue) }),
        category: failure.category ?? rule.id,
      });
    }
  }
  if (violations.length > 0) return fail(violations);

  // §3.2.5: requirements.
  for (const draft of drafts) {
    const failures = draft.registered.definition.requires?.(describeInput(draft, provisional)) ?? [];
    for (const failure of failures) violations.push(toViolation(draft, failure, "requirements"));
  }
  if (violations.length > 0) return fail(violations);

  const resolved: ResolvedEnvironment = { ...env, flags: namespaceFlags(registry) };
  const tools = drafts.map((draft) => buildTool(draft, provisional, resolved));
  return { ok: true, tools, warnings };
}

/** A name map from outside without prototype keys. */
function safeNameMap(names: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [canonical, client] of Object.entries(names ?? {})) if (isSafeKey(canonical) && isSafeKey(client)) out[canonical] = client;
  return out;
}

const INVALID = Symbol("invalid");

/**
 * Effective params = defaults shallow-merged with the client object (client keys replace whole
 * values, unknown keys of lenient params included, as the reference's `merge_json`). The typed
 * check sees the merge, minus unknown keys when the params ignore them; then semantic checks.
 */
function effectiveParams(registered: RegisteredTool, client: Record<string, unknown> | undefined, index: number, violations: ConfigViolation[]): unknown {
  const spec = registered.definition.params;
  if (!spec) return client ?? {};
  const merged: Record<string, unknown> = { ...(spec.defaults as Record<string, unknown>) };
  const checked: Record<string, unknown> = { ...(spec.defaults as Record<string, unknown>) };
  const known = (spec.schema as { properties?: object }).properties ?? {};
  for (const [key, value] of Object.entries(client ?? {})) {
    if (!isSafeKey(key)) continue;
    merged[key] = value;
    if (Object.hasOwn(known, key) || !spec.ignoreUnknownFields) checked[key] = value;
  }
  const problem = firstProblem(spec.schema, checked);
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
    violations.push({
      entryIndex: index,
      toolId: registered.fqId,
      message: failure.message,
      category: failure.category ?? "params_constraint",
      ...optionalFields(failure),
    });
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
  return {
    entryIndex: draft.index,
    toolId: draft.registered.fqId,
    message: failure.message,
    category: failure.category ?? category,
    ...optionalFields(failure),
  };
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

/**
 * Builds the model-facing description and schema of one tool (spec §2.7, §2.8): raw text
 * (override or built-in), template render (fallback per tool), placeholders (`{max_output_bytes}`
 * is the tool's resolved output limit, as its calls get it); schema renamed, every description
 * rendered, then top-level placeholders and the `maximum` of the property that documents `{max_wait_ms}`.
 */
function buildTool(draft: Draft, toolset: FinalizedToolset, env: ResolvedEnvironment): FinalizedTool {
  const def = draft.registered.definition;
  const input = describeInput(draft, toolset);
  const canonicalSchema: TSchema = def.inputSchemaFor?.(input) ?? def.input;
  const context = descriptionContext(toolset, env.systemRemindersEnabled, env.flags, def.templateVariables?.(input) ?? {});
  const placeholders: PlaceholderValues = {
    // The same resolver as the call's ctx.outputLimit: keyed by the tool's canonical name, not its client name.
    maxOutputBytes: describedOutputLimit(env.truncation, def.truncation ?? fallbackOutputLimitSpec(def.id), draft.params, draft.contractVersion),
    maxLinesRead: env.truncation.maxLinesRead,
    maxWaitMs: maxWaitBlockMs(),
    maxCharsPerLine: MAX_CHARS_PER_LINE,
  };
  const raw = draft.descriptionOverride ?? (typeof def.description === "function" ? def.description(input) : def.description);
  const onError =
    def.descriptionRenderFallback === "raw" && draft.descriptionOverride !== undefined ? (text: string) => text : (text: string) => stripTemplateMarkers(text);
  const description = substitutePlaceholders(renderTemplate(raw, context, onError), placeholders);
  const renamed = renameSchema(structuredClone(canonicalSchema) as Record<string, unknown>, draft.paramNames);
  renderSchemaDescriptions(renamed, context);
  applyPlaceholdersToSchema(renamed, placeholders);
  return { ...provisionalTool(draft), description, inputSchema: renamed, canonicalInputSchema: canonicalSchema };
}

/**
 * The template context of a finalized toolset: `tools.by_kind`, `params.<kind>`, the namespaces'
 * flags, `system_reminders_enabled`, and a tool's extras on top.
 */
export function descriptionContext(
  toolset: FinalizedToolset,
  systemRemindersEnabled: boolean,
  flags: Readonly<Record<string, unknown>> = {},
  extras: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    tools: { by_kind: toolset.kindToolNames() },
    params: toolset.kindParamMaps(),
    ...flags,
    system_reminders_enabled: systemRemindersEnabled,
    ...extras,
  };
}

/** Renders every string `description` in a schema, at any depth, in place (markers stripped on failure). */
function renderSchemaDescriptions(node: unknown, context: Record<string, unknown>): void {
  if (Array.isArray(node)) {
    for (const item of node) renderSchemaDescriptions(item, context);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const object = node as Record<string, unknown>;
  if (typeof object.description === "string") object.description = renderTemplate(object.description, context);
  for (const value of Object.values(object)) renderSchemaDescriptions(value, context);
}

/** Top-level property descriptions get the plain placeholders; the wait property gets `maximum`. */
function applyPlaceholdersToSchema(schema: Record<string, unknown>, placeholders: PlaceholderValues): void {
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null) return;
  for (const property of Object.values(properties as Record<string, unknown>)) {
    if (typeof property !== "object" || property === null) continue;
    const object = property as Record<string, unknown>;
    if (typeof object.description !== "string") continue;
    const documentsWait = object.description.includes("{max_wait_ms}");
    object.description = substitutePlaceholders(object.description, placeholders);
    if (documentsWait) object.maximum = placeholders.maxWaitMs;
  }
}

/** Renames top-level `properties` keys and `required` entries (canonical → client). */
export function renameSchema(schema: Record<string, unknown>, names: Readonly<Record<string, string>>): Record<string, unknown> {
  if (Object.keys(names).length === 0) return schema;
  const out: Record<string, unknown> = { ...schema };
  const properties = schema.properties as Record<string, unknown> | undefined;
  const rename = (key: string): string => (Object.hasOwn(names, key) ? names[key]! : key);
  if (properties) out.properties = Object.fromEntries(Object.entries(properties).map(([key, value]) => [rename(key), value]));
  if (Array.isArray(schema.required)) out.required = (schema.required as string[]).map(rename);
  return out;
}
