/**
 * The toolset configuration of one session: finalize (spec §3.6), the locked toolset, tool options
 * and overrides (the deprecated pre-finalize RPCs, spec §10), truncation settings and the system
 * reminder switch. It reaches the session only through {@link ConfigurationHost}.
 */
import type { ToolRegistry } from "../registry/tool-registry.js";
import type { ResourceStore } from "../session/resource-store.js";
import type { Logger } from "../core/logger.js";
import { isPlainObject, isSafeKey } from "../core/plain-object.js";
import { defineResource, type ResourceKey } from "../tool/resource.js";
import type { AnyToolDefinition } from "../tool/define-tool.js";
import type { ReminderDefinition } from "../tool/reminder.js";
import { TruncationSettings, type TruncationConfigInput } from "../output/truncation-settings.js";
import { descriptionContext, finalizeTools } from "../finalize/finalize-tools.js";
import { FinalizedToolset } from "../finalize/finalized-toolset.js";
import type { ConfigViolation, FinalizeInput, FinalizeOutcome, ToolConfigInput } from "../finalize/finalize-types.js";
import type { VersionCatalog } from "../finalize/behavior-presets.js";
import { firstProblem } from "../validation/validate-value.js";
import { parseJsonLikeSerde } from "../validation/serde-json-error.js";
import { PreFinalizeConfig, PreconditionError } from "./pre-finalize-config.js";
import { namespaceFlags, namespaceReminders, remindersForcedOffBy } from "../finalize/namespace-contributions.js";

/** Per-tool params are resources too: they travel in GetToolState under `params`. */
export function paramsResource(id: string, defaults: unknown): ResourceKey<unknown> {
  return defineResource<unknown>({
    id,
    category: "params",
    initial: () => structuredClone(defaults),
    decode: (json) => (isPlainObject(json) ? json : undefined),
  });
}

/**
 * The params key of a tool's params spec, made once per spec: every call of a tool with params looks
 * its params up, and a key made per call was a frozen object, two closures and a slot string each,
 * plus an entry in the resource store's WeakMap of slots for a key dead at once (issue #18).
 */
const PARAMS_KEYS = new WeakMap<object, ResourceKey<unknown>>();

function paramsKeyOf(spec: { resourceId: string; defaults: unknown }): ResourceKey<unknown> {
  let key = PARAMS_KEYS.get(spec);
  if (key === undefined) {
    key = paramsResource(spec.resourceId, spec.defaults);
    PARAMS_KEYS.set(spec, key);
  }
  return key;
}

/** Result of a deprecated configuration RPC (`success` + `message`). */
export interface ConfigChangeResult {
  success: boolean;
  message: string;
}

/** Result of Set/ResetToolOptions. */
export interface ToolOptionsChangeResult extends ConfigChangeResult {
  effectiveOptionsJson: string;
}

/** GetToolOptions. */
export interface ToolOptionsInfo {
  toolName: string;
  effectiveOptionsJson: string;
  defaultOptionsJson: string;
  configuredOptionsJson: string;
  optionsSchemaJson?: string;
}

/** Where a failed first state write went (finalize still succeeds, issue 22.2). */
export interface StateNotSaved {
  file: string;
  reason: string;
}

/** What the configuration needs of its session. */
export interface ConfigurationHost {
  readonly registry: ToolRegistry;
  readonly resources: ResourceStore;
  readonly log: Logger;
  /** Takes the session id a finalize request names. */
  adoptId(id: string): void;
  /** Opens the session's state file and merges what it holds into the resources. */
  openState(): Promise<void>;
  /** Persists every later resource change, and writes the state now; says why when that write fails. */
  startPersisting(): Promise<StateNotSaved | undefined>;
}

/** How the server configures a session's toolset. */
export interface ConfigurationOptions {
  /** Reminders besides the ones namespaces and tools declare. */
  reminders?: readonly ReminderDefinition[];
  /** Presets and version lifecycles (tests); by default the ones the registered namespaces declare. */
  versionCatalog?: VersionCatalog;
}

const FINALIZED_MESSAGE = "The tool configuration is already finalized";

export class ToolsetConfiguration {
  /** The pending configuration of the deprecated pre-finalize RPCs. */
  readonly pending: PreFinalizeConfig;
  readonly #host: ConfigurationHost;
  readonly #extraReminders: readonly ReminderDefinition[];
  readonly #versionCatalog: VersionCatalog | undefined;
  #truncation = new TruncationSettings();
  #systemRemindersEnabled = false;
  /** The namespace that keeps reminders off (a configured tool of it), if any. */
  #remindersForcedOffBy: string | undefined;
  #toolset: FinalizedToolset | undefined;
  #finalizing = false;
  #activeReminders: ReminderDefinition[] = [];
  /** Options the client configured per fq id (not merged with defaults), for GetToolOptions. */
  readonly #configuredOptions = new Map<string, Record<string, unknown>>();

  constructor(host: ConfigurationHost, options: ConfigurationOptions = {}) {
    this.#host = host;
    this.#extraReminders = options.reminders ?? [];
    this.#versionCatalog = options.versionCatalog;
    this.pending = new PreFinalizeConfig(host.registry);
  }

  get truncation(): TruncationSettings {
    return this.#truncation;
  }

  get systemRemindersEnabled(): boolean {
    return this.#systemRemindersEnabled;
  }

  /** The locked toolset, once finalized. */
  get toolset(): FinalizedToolset | undefined {
    return this.#toolset;
  }

  get finalized(): boolean {
    return this.#toolset !== undefined;
  }

  /** Whether a finalize is done or under way (the deprecated RPCs are refused from then on). */
  get locked(): boolean {
    return this.#toolset !== undefined || this.#finalizing;
  }

  /** Reminders that run after each successful call (those whose `isActive` held at finalize). */
  get activeReminders(): readonly ReminderDefinition[] {
    return this.#activeReminders;
  }

  /**
   * Validates and applies a finalize request (spec §3.6): settings, toolset, persisted state,
   * effective params, then the `state` part of `initial_tool_state_json`. A request with no
   * tools uses the pending pre-finalize config. Throws {@link PreconditionError} when already
   * finalized; every validation failure is an `ok: false` outcome.
   *
   * `initial_tool_state_json`: each present `state` entry replaces that resource wholesale after
   * the disk load; missing ids keep their value; values that do not decode are ignored.
   * `params` entries are ignored (logged): the request's `params_json` is the one source of
   * params, as it beats persisted params too. Prototype keys (`__proto__`, `constructor`,
   * `prototype`) anywhere at the category or id level are refused.
   */
  async finalize(input: FinalizeInput): Promise<FinalizeOutcome> {
    if (this.locked) throw new PreconditionError(FINALIZED_MESSAGE);
    this.#finalizing = true;
    try {
      return await this.#finalize(input);
    } finally {
      this.#finalizing = false;
    }
  }

  async #finalize(request: FinalizeInput): Promise<FinalizeOutcome> {
    const host = this.#host;
    const input: FinalizeInput = request.tools.length === 0 && this.pending.enabled.length > 0 ? { ...request, tools: this.pending.toEntries() } : request;
    const truncation = input.truncation ? new TruncationSettings(input.truncation) : this.#truncation;
    const forcedOffBy = remindersForcedOffBy(
      host.registry,
      input.tools.map((t) => t.id),
    );
    // On when the request or a SetSystemReminders before finalize turned it on (the proto's flag is
    // a plain bool, so an unset flag reads as false); off with a tool of a namespace that forbids them.
    const remindersEnabled = forcedOffBy === undefined && (input.systemRemindersEnabled === true || this.#systemRemindersEnabled);
    const initial = parseInitialState(input.initialToolStateJson);
    if (!initial.ok) return { ok: false, message: `(global): initial_tool_state_json; ${initial.message}`, violations: [initial.violation] };

    const outcome = finalizeTools(host.registry, input, {
      truncation,
      systemRemindersEnabled: remindersEnabled,
      ...(this.#versionCatalog ? { catalog: this.#versionCatalog } : {}),
    });
    if (!outcome.ok) return outcome;
    if (input.sessionId) host.adoptId(input.sessionId);
    this.#truncation = truncation;
    this.#systemRemindersEnabled = remindersEnabled;
    this.#remindersForcedOffBy = forcedOffBy;

    // Every declared resource of every registered tool, so persisted values of tools not
    // enabled in this session survive a round trip too.
    const resources = host.resources;
    const candidates = [...namespaceReminders(host.registry), ...outcome.tools.flatMap((t) => t.definition.reminders ?? []), ...this.#extraReminders];
    for (const reminder of candidates) for (const key of reminder.resources ?? []) resources.register(key);
    for (const registered of host.registry.list()) {
      for (const key of registered.definition.resources ?? []) resources.register(key);
    }
    for (const tool of outcome.tools) {
      const spec = tool.definition.params;
      if (spec) resources.register(paramsKeyOf(spec));
    }
    await host.openState();
    for (const [index, tool] of outcome.tools.entries()) {
      const spec = tool.definition.params;
      const key = spec ? paramsKeyOf(spec) : undefined;
      if (key && !(input.restoring && resources.has(key))) resources.set(key, tool.params);
      this.#configuredOptions.set(tool.fqId, configuredObject(input.tools[index]));
    }
    if (initial.value !== undefined) {
      if (initial.value.params !== undefined)
        host.log.warn({ ids: Object.keys(initial.value.params as object) }, "initial_tool_state_json params ignored: finalize params_json wins");
      const result = resources.merge({ state: initial.value.state }, new Set(["state"]));
      if (result.ignored.length > 0) host.log.warn({ ignored: result.ignored }, "initial_tool_state_json entries ignored");
    }
    const toolset = new FinalizedToolset(outcome.tools);
    this.#activeReminders = selectReminders(candidates, toolset);
    this.#toolset = toolset;
    const stateNotSaved = await host.startPersisting();
    return stateNotSaved ? { ...outcome, stateNotSaved } : outcome;
  }

  /** The effective params of a finalized tool now (SetToolOptions may change them after finalize). */
  currentParams(def: AnyToolDefinition, fallback: unknown): unknown {
    const spec = def.params;
    if (!spec) return fallback;
    const key = paramsKeyOf(spec);
    return this.#host.resources.has(key) ? this.#host.resources.get(key) : fallback;
  }

  /** The template context of the finalized toolset (for reminders and prompts); before finalize, of the pending one. */
  templateContext(): Record<string, unknown> {
    const toolset = this.#toolset ?? this.#previewToolset();
    return descriptionContext(toolset ?? new FinalizedToolset([]), this.#systemRemindersEnabled, namespaceFlags(this.#host.registry));
  }

  /** Throws {@link PreconditionError} once finalize has started: `operation` is no longer allowed. */
  assertNotFinalized(operation: string): void {
    if (this.locked) throw new PreconditionError(`${operation} is not allowed: ${FINALIZED_MESSAGE.charAt(0).toLowerCase()}${FINALIZED_MESSAGE.slice(1)}`);
  }

  // ---- Deprecated pre-finalize RPCs (spec §10) ----

  /** EnableTool: adds a tool to the pending config. */
  enableTool(name: string): ConfigChangeResult {
    this.assertNotFinalized("EnableTool");
    const registered = this.pending.resolve(name);
    if (!registered) return { success: false, message: this.pending.notFoundMessage(name) };
    const added = this.pending.enable(registered.fqId);
    return { success: true, message: added ? `Tool ${registered.fqId} enabled` : `Tool ${registered.fqId} is already enabled` };
  }

  /** DisableTool: removes a tool from the pending config. */
  disableTool(name: string): ConfigChangeResult {
    this.assertNotFinalized("DisableTool");
    const registered = this.pending.resolve(name);
    if (!registered) return { success: false, message: this.pending.notFoundMessage(name) };
    const removed = this.pending.disable(registered.fqId);
    return { success: true, message: removed ? `Tool ${registered.fqId} disabled` : `Tool ${registered.fqId} is not enabled` };
  }

  /**
   * SetToolOptions: merges `optionsJson` into the tool's configured options (or replaces them
   * with `replace`), validated against the params schema. Before finalize it shapes the pending
   * config; after finalize it rewrites the tool's params resource, which later calls read
   * (descriptions, schemas and requirements checked at finalize stay as they were).
   */
  setToolOptions(name: string, optionsJson: string, replace = false): ToolOptionsChangeResult {
    const target = this.#optionsTarget(name);
    if (!target.ok) return { success: false, message: target.message, effectiveOptionsJson: "" };
    const parsed = optionsJson.trim() === "" ? { ok: true as const, value: {} } : parseJsonLikeSerde(optionsJson);
    if (!parsed.ok)
      return { success: false, message: `options_json failed to parse JSON: ${parsed.message}`, effectiveOptionsJson: JSON.stringify(target.effective) };
    if (!isPlainObject(parsed.value))
      return { success: false, message: "options_json must be a JSON object", effectiveOptionsJson: JSON.stringify(target.effective) };
    const incoming = Object.fromEntries(Object.entries(parsed.value).filter(([key]) => isSafeKey(key)));
    const configured = replace ? incoming : { ...target.configured, ...incoming };
    return this.#applyOptions(target, configured);
  }

  /** GetToolOptions, or undefined for an unknown tool. */
  getToolOptions(name: string, includeSchema = false): ToolOptionsInfo | undefined {
    const target = this.#optionsTarget(name);
    if (!target.ok) return undefined;
    const spec = target.def.params;
    return {
      toolName: target.name,
      effectiveOptionsJson: JSON.stringify(target.effective),
      defaultOptionsJson: JSON.stringify(spec?.defaults ?? {}),
      configuredOptionsJson: JSON.stringify(target.configured),
      ...(includeSchema && spec ? { optionsSchemaJson: JSON.stringify(spec.schema) } : {}),
    };
  }

  /** ResetToolOptions: drops the given configured keys, or all of them when none are given. */
  resetToolOptions(name: string, keysToReset: readonly string[] = []): ToolOptionsChangeResult {
    const target = this.#optionsTarget(name);
    if (!target.ok) return { success: false, message: target.message, effectiveOptionsJson: "" };
    const configured = keysToReset.length === 0 ? {} : Object.fromEntries(Object.entries(target.configured).filter(([key]) => !keysToReset.includes(key)));
    return this.#applyOptions(target, configured);
  }

  /** SetToolOverride: name and parameter overrides of a tool in the pending config (before finalize only). */
  setToolOverride(name: string, toolNameForModel: string, paramNameOverrides: Readonly<Record<string, string>> = {}): ConfigChangeResult {
    this.assertNotFinalized("SetToolOverride");
    const registered = this.pending.resolve(name);
    if (!registered) return { success: false, message: this.pending.notFoundMessage(name) };
    const entries = Object.entries(paramNameOverrides);
    const unsafe = entries.find(([canonical, client]) => !isSafeKey(canonical) || !isSafeKey(client) || client === "");
    if (unsafe) return { success: false, message: `invalid parameter name override ${JSON.stringify(unsafe[0])} -> ${JSON.stringify(unsafe[1])}` };
    this.pending.setOverride(registered.fqId, toolNameForModel, paramNameOverrides);
    return { success: true, message: `Overrides set for ${registered.fqId}` };
  }

  /** ClearToolOverride (before finalize only). */
  clearToolOverride(name: string): ConfigChangeResult {
    this.assertNotFinalized("ClearToolOverride");
    const registered = this.pending.resolve(name);
    if (!registered) return { success: false, message: this.pending.notFoundMessage(name) };
    const cleared = this.pending.clearOverride(registered.fqId);
    return { success: true, message: cleared ? `Overrides cleared for ${registered.fqId}` : `No overrides set for ${registered.fqId}` };
  }

  /** SetSystemReminders: the global switch (stays off when a tool of a namespace that forbids reminders is configured). */
  setSystemReminders(enabled: boolean): ConfigChangeResult & { enabled: boolean } {
    if (enabled && this.#remindersForcedOffBy !== undefined) {
      return { success: false, message: `System reminders stay disabled: a ${this.#remindersForcedOffBy} tool is configured`, enabled: false };
    }
    this.#systemRemindersEnabled = enabled;
    return { success: true, message: `System reminders ${enabled ? "enabled" : "disabled"}`, enabled };
  }

  /** GetSystemReminders. */
  getSystemReminders(): boolean {
    return this.#systemRemindersEnabled;
  }

  /** SetTruncationConfig: applies to later calls (descriptions rendered at finalize stay as they are). */
  setTruncationConfig(config: TruncationConfigInput): void {
    this.#truncation = new TruncationSettings(config);
  }

  /** GetTruncationConfig: the configured values (absent fields use the tools' built-in limits). */
  getTruncationConfig(): TruncationConfigInput {
    const config = this.#truncation.config;
    return {
      ...(config.defaultMaxOutputBytes === undefined ? {} : { defaultMaxOutputBytes: config.defaultMaxOutputBytes }),
      perToolMaxOutputBytes: { ...(config.perToolMaxOutputBytes ?? {}) },
      ...(config.maxLinesRead === undefined ? {} : { maxLinesRead: config.maxLinesRead }),
    };
  }

  /** A toolset built from the pending config, for rendering prompts before finalize. */
  #previewToolset(): FinalizedToolset | undefined {
    const preview = finalizeTools(
      this.#host.registry,
      { tools: this.pending.toEntries() },
      {
        truncation: this.#truncation,
        systemRemindersEnabled: this.#systemRemindersEnabled,
        ...(this.#versionCatalog ? { catalog: this.#versionCatalog } : {}),
      },
    );
    return preview.ok ? new FinalizedToolset(preview.tools) : undefined;
  }

  #optionsTarget(
    name: string,
  ):
    | { ok: true; name: string; fqId: string; def: AnyToolDefinition; configured: Record<string, unknown>; effective: unknown; finalized: boolean }
    | { ok: false; message: string } {
    if (this.#toolset) {
      const tool = this.#toolset.byClientName(name) ?? this.#toolset.byFqId(name) ?? this.#toolset.tools.find((t) => t.definition.id === name);
      if (!tool) return { ok: false, message: `Tool not found: ${name}` };
      const configured = { ...(this.#configuredOptions.get(tool.fqId) ?? {}) };
      return {
        ok: true,
        name: tool.clientName,
        fqId: tool.fqId,
        def: tool.definition,
        configured,
        effective: this.currentParams(tool.definition, tool.params),
        finalized: true,
      };
    }
    const registered = this.pending.resolve(name);
    if (!registered) return { ok: false, message: this.pending.notFoundMessage(name) };
    const configured = this.pending.configuredOptions(registered.fqId);
    const defaults = (registered.definition.params?.defaults ?? {}) as Record<string, unknown>;
    return {
      ok: true,
      name: registered.fqId,
      fqId: registered.fqId,
      def: registered.definition,
      configured,
      effective: { ...defaults, ...configured },
      finalized: false,
    };
  }

  #applyOptions(
    target: { fqId: string; def: AnyToolDefinition; effective: unknown; finalized: boolean },
    configured: Record<string, unknown>,
  ): ToolOptionsChangeResult {
    const spec = target.def.params;
    const unchanged = JSON.stringify(target.effective);
    if (!spec) {
      if (Object.keys(configured).length > 0) return { success: false, message: `Tool ${target.fqId} has no options`, effectiveOptionsJson: unchanged };
      return { success: true, message: "", effectiveOptionsJson: unchanged };
    }
    const defaults = spec.defaults as Record<string, unknown>;
    const effective: Record<string, unknown> = { ...defaults, ...configured };
    const known = (spec.schema as { properties?: object }).properties ?? {};
    const checked = spec.ignoreUnknownFields ? Object.fromEntries(Object.entries(effective).filter(([key]) => Object.hasOwn(known, key))) : effective;
    const problem = firstProblem(spec.schema, checked);
    if (problem)
      return { success: false, message: problem.path === "" ? problem.message : `${problem.path}: ${problem.message}`, effectiveOptionsJson: unchanged };
    const failure = spec.check?.(effective as never)[0];
    if (failure) return { success: false, message: failure.message, effectiveOptionsJson: unchanged };
    if (target.finalized) {
      this.#configuredOptions.set(target.fqId, configured);
      this.#host.resources.set(paramsKeyOf(spec), effective);
    } else {
      this.pending.setConfiguredOptions(target.fqId, configured);
    }
    return { success: true, message: "", effectiveOptionsJson: JSON.stringify(effective) };
  }
}

/** The client object of a finalize entry (already validated by finalize). */
function configuredObject(entry: ToolConfigInput | undefined): Record<string, unknown> {
  if (entry?.paramsJson === undefined) return {};
  try {
    const value: unknown = JSON.parse(entry.paramsJson);
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
}

/** Reminders active for a toolset, each id once, in declaration order. */
function selectReminders(candidates: readonly ReminderDefinition[], toolset: FinalizedToolset): ReminderDefinition[] {
  const seen = new Set<string>();
  const out: ReminderDefinition[] = [];
  for (const reminder of candidates) {
    if (seen.has(reminder.id)) continue;
    seen.add(reminder.id);
    if (reminder.isActive === undefined || reminder.isActive(toolset)) out.push(reminder);
  }
  return out;
}

type InitialState = { ok: true; value?: { params?: unknown; state?: unknown } } | { ok: false; message: string; violation: ConfigViolation };

/** Parses `initial_tool_state_json`: absent/empty → nothing; must be `{params?, state?}` without prototype keys. */
function parseInitialState(json: string | undefined): InitialState {
  if (json === undefined || json.trim() === "") return { ok: true };
  const fail = (message: string, badValueJson?: string): InitialState => ({
    ok: false,
    message,
    violation: {
      toolId: "(global)",
      fieldPath: "initial_tool_state_json",
      message,
      expected: 'a JSON object shaped {"params": {...}, "state": {...}}',
      ...(badValueJson === undefined ? {} : { badValueJson }),
      category: "initial_tool_state_json",
    },
  });
  const parsed = parseJsonLikeSerde(json);
  if (!parsed.ok) return fail(`initial_tool_state_json failed to parse JSON: ${parsed.message}`);
  const value = parsed.value;
  if (!isPlainObject(value)) return fail("initial_tool_state_json must be a JSON object", JSON.stringify(value));
  for (const [category, entries] of Object.entries(value)) {
    if (!isSafeKey(category)) return fail(`initial_tool_state_json has a forbidden key "${category}"`, JSON.stringify(category));
    if ((category === "params" || category === "state") && entries !== undefined && entries !== null) {
      if (!isPlainObject(entries)) return fail(`initial_tool_state_json.${category} must be a JSON object`, JSON.stringify(entries));
      const bad = Object.keys(entries).find((id) => !isSafeKey(id));
      if (bad !== undefined) return fail(`initial_tool_state_json.${category} has a forbidden key "${bad}"`, JSON.stringify(bad));
    }
  }
  return { ok: true, value: { params: value.params ?? undefined, state: value.state ?? undefined } };
}
