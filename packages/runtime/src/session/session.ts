/**
 * Session: one agent's finalized toolset, resources, services, cwd, reminders, agent and state
 * file. Every piece of per-session state lives here, so a server can hold many sessions. The
 * deprecated pre-finalize RPCs are methods here too; the server only maps them to the wire.
 */
import os from "node:os";
import path from "node:path";
import type { ToolRegistry } from "../registry/tool-registry.js";
import { ResourceStore, defineResource, isPlainObject, isSafeKey, type ResourceKey } from "./resource-store.js";
import type { ServiceKey } from "./session-service.js";
import { silentLogger, type Logger } from "./logger.js";
import { StatePersister } from "./state-persister.js";
import { withStateWriteFailure } from "./state-write-error.js";
import { rustIoErrorText } from "../fs/io-error-text.js";
import { PreFinalizeConfig, PreconditionError } from "./pre-finalize-config.js";
import { TruncationSettings, type TruncationConfigInput } from "../output/truncation-settings.js";
import type { SessionHandle, ToolNotification } from "../execute/tool-context.js";
import { descriptionContext, finalizeTools } from "../finalize/finalize-tools.js";
import { FinalizedToolset } from "../finalize/finalized-toolset.js";
import type { ConfigViolation, FinalizeInput, FinalizeOutcome, ToolConfigInput } from "../finalize/finalize-types.js";
import type { VersionCatalog } from "../finalize/behavior-presets.js";
import { renderTemplate } from "../finalize/template-renderer.js";
import { runTool } from "../execute/run-tool.js";
import type { ExecuteOutcome, ExecuteRequest } from "../execute/execute-types.js";
import type { AnyToolDefinition } from "../tool/define-tool.js";
import { DEFAULT_REMINDER_TAG, type ReminderDefinition } from "../reminders/reminder.js";
import { todoNudgeReminder } from "../reminders/todo-nudge.js";
import { taskCompletionReminder } from "../reminders/task-completion.js";
import { uuidV7 } from "../tasks/index.js";
import type { AgentDefinition } from "../agent/agent-definition.js";
import { firstProblem } from "../validation/validate-value.js";
import { TempJournal } from "../fs/temp-journal.js";
import { parseJsonLikeSerde } from "../validation/serde-json-error.js";

/** How a session is set up by its server. */
export interface SessionOptions {
  registry: ToolRegistry;
  /** The workspace root; the session's cwd. */
  workspace: string;
  /** Extra roots file tools may reach (`--allow-path`). */
  allowPaths?: readonly string[];
  /** `any` lifts path confinement (decision D3). */
  fsScope?: "workspace" | "any";
  /** Where per-session folders live (`--state-dir`). */
  stateDir?: string;
  /** Session id used before finalize names one. */
  id?: string;
  log?: Logger;
  /** Receives tool notifications (the callback host, when connected). */
  onNotification?: (sessionId: string, notification: ToolNotification) => void;
  /** Version reported when a tool has none of its own. */
  runtimeVersion?: string;
  /** Reminders besides the built-in ones (task completions, TodoNudge) and the ones tools declare. */
  reminders?: readonly ReminderDefinition[];
  /** The reminder wrapper tag (default `system-reminder`). */
  reminderTag?: string;
  /**
   * Check every successful output against the tool's output schema; a mismatch becomes an
   * INTERNAL error (for tests and debugging). Also on with `GROK_TOOLS_VALIDATE_OUTPUTS=1`.
   */
  validateOutputs?: boolean;
  /** The agent definition behind GetSystemPrompt / GetAgentInfo / completion state. */
  agent?: AgentDefinition;
  /** Presets and version lifecycles (tests); the reference's by default. */
  versionCatalog?: VersionCatalog;
}

/** The default state folder: `$XDG_STATE_HOME/grok-tools` or `~/.local/state/grok-tools`. */
export function defaultStateDir(): string {
  const base = process.env.XDG_STATE_HOME || path.join(os.homedir(), ".local", "state");
  return path.join(base, "grok-tools");
}

/** A session id made safe for a folder name. */
export function sanitizeForFileName(id: string): string {
  const cleaned = id.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_");
  return cleaned === "" ? "_" : cleaned.slice(0, 128);
}

/** Per-tool params are resources too: they travel in GetToolState under `params`. */
export function paramsResource(id: string, defaults: unknown): ResourceKey<unknown> {
  return defineResource<unknown>({ id, category: "params", initial: () => structuredClone(defaults), decode: (json) => (isPlainObject(json) ? json : undefined) });
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

/** GetAgentInfo, in runtime terms. */
export interface AgentInfo {
  name: string;
  description: string;
  tools: string[];
  disallowedTools: string[];
  permissionMode: string;
  outputFormat: string;
  completionRequirement?: { tool: string; reminder: string };
  toolConfig: AgentDefinition["toolConfig"];
}

/** GetCompletionState. */
export interface CompletionState {
  hasRequirement: boolean;
  requiredTool: string;
  completed: boolean;
}

const FINALIZED_MESSAGE = "The tool configuration is already finalized";

/** Reminders every session considers: background task completions, then the todo nudge. */
const BUILT_IN_REMINDERS: readonly ReminderDefinition[] = [taskCompletionReminder, todoNudgeReminder];

export class Session implements SessionHandle {
  readonly registry: ToolRegistry;
  readonly workspace: string;
  readonly #configuredRoots: readonly string[];
  readonly fsScope: "workspace" | "any";
  readonly stateDir: string;
  /** Where this session's atomic writes note their temporaries (in the state folder). */
  readonly tempJournal: TempJournal;
  readonly resources = new ResourceStore();
  readonly log: Logger;
  readonly runtimeVersion: string;
  readonly reminderTag: string;
  readonly validateOutputs: boolean;
  /** The pending configuration of the deprecated pre-finalize RPCs. */
  readonly pending: PreFinalizeConfig;
  #id: string;
  #truncation = new TruncationSettings();
  #systemRemindersEnabled = false;
  #remindersForcedOff = false;
  #toolset: FinalizedToolset | undefined;
  #finalizing = false;
  #persister: StatePersister | undefined;
  #activeReminders: ReminderDefinition[] = [];
  #agent: AgentDefinition | undefined;
  #agentFinalized = false;
  #completed = false;
  /** Options the client configured per fq id (not merged with defaults), for GetToolOptions. */
  readonly #configuredOptions = new Map<string, Record<string, unknown>>();
  readonly #extraReminders: readonly ReminderDefinition[];
  readonly #versionCatalog: VersionCatalog | undefined;
  readonly #services = new Map<string, unknown>();
  readonly #serviceKeys = new Map<string, ServiceKey<unknown, SessionHandle>>();
  readonly #active = new Set<Promise<unknown>>();
  #onNotification: SessionOptions["onNotification"];

  constructor(options: SessionOptions) {
    this.registry = options.registry;
    this.workspace = path.resolve(options.workspace);
    this.fsScope = options.fsScope ?? "workspace";
    this.#configuredRoots = this.fsScope === "any" ? [] : [this.workspace, ...(options.allowPaths ?? []).map((p) => path.resolve(p))];
    this.stateDir = path.resolve(options.stateDir ?? defaultStateDir());
    this.tempJournal = new TempJournal(this.stateDir);
    this.#id = options.id ?? "default";
    this.log = options.log ?? silentLogger;
    this.#onNotification = options.onNotification;
    this.runtimeVersion = options.runtimeVersion ?? "0.1.0";
    this.reminderTag = options.reminderTag ?? DEFAULT_REMINDER_TAG;
    this.validateOutputs = options.validateOutputs ?? process.env.GROK_TOOLS_VALIDATE_OUTPUTS === "1";
    this.#extraReminders = options.reminders ?? [];
    this.#versionCatalog = options.versionCatalog;
    this.pending = new PreFinalizeConfig(this.registry);
    if (options.agent) this.setAgent(options.agent);
  }

  /**
   * Folders file tools may reach: the workspace, `--allow-path`s and this session's own folder
   * (plan files, saved web pages and terminal logs live there and must be readable); none with `fsScope: "any"`.
   */
  get roots(): readonly string[] {
    return this.fsScope === "any" ? [] : [...this.#configuredRoots, this.sessionDir];
  }

  get id(): string {
    return this.#id;
  }

  /** This session's private folder under the state dir (one per session id). */
  get sessionDir(): string {
    return path.join(this.stateDir, sanitizeForFileName(this.#id));
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

  /** Reminders that run after each successful call (those whose `isActive` held at finalize). */
  get activeReminders(): readonly ReminderDefinition[] {
    return this.#activeReminders;
  }

  service<T>(key: ServiceKey<T, SessionHandle>): T {
    if (!this.#services.has(key.name)) {
      this.#services.set(key.name, key.create(this));
      this.#serviceKeys.set(key.name, key as ServiceKey<unknown, SessionHandle>);
    }
    return this.#services.get(key.name) as T;
  }

  /** Sends a notification to the host, if one listens. */
  /** Replaces where notifications go (the server connects the host's callback at finalize). */
  setNotificationSink(sink: SessionOptions["onNotification"]): void {
    this.#onNotification = sink;
  }

  notify(notification: ToolNotification): void {
    this.#onNotification?.(this.#id, notification);
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
    if (this.#toolset || this.#finalizing) throw new PreconditionError(FINALIZED_MESSAGE);
    this.#finalizing = true;
    try {
      return await this.#finalize(input);
    } finally {
      this.#finalizing = false;
    }
  }

  async #finalize(request: FinalizeInput): Promise<FinalizeOutcome> {
    const input: FinalizeInput = request.tools.length === 0 && this.pending.enabled.length > 0 ? { ...request, tools: this.pending.toEntries() } : request;
    const truncation = input.truncation ? new TruncationSettings(input.truncation) : this.#truncation;
    const forceRemindersOff = input.tools.some((t) => t.id.startsWith("GrokBuildConcise:"));
    // On when the request or a SetSystemReminders before finalize turned it on (the proto's
    // flag is a plain bool, so an unset flag reads as false); off with any GrokBuildConcise tool.
    const remindersEnabled = !forceRemindersOff && (input.systemRemindersEnabled === true || this.#systemRemindersEnabled);
    const initial = parseInitialState(input.initialToolStateJson);
    if (!initial.ok) return { ok: false, message: `(global): initial_tool_state_json; ${initial.message}`, violations: [initial.violation] };

    const outcome = finalizeTools(this.registry, input, {
      truncation,
      systemRemindersEnabled: remindersEnabled,
      ...(this.#versionCatalog ? { catalog: this.#versionCatalog } : {}),
    });
    if (!outcome.ok) return outcome;
    if (input.sessionId) this.#id = input.sessionId;
    this.#truncation = truncation;
    this.#systemRemindersEnabled = remindersEnabled;
    this.#remindersForcedOff = forceRemindersOff;

    // Every declared resource of every registered tool, so persisted values of tools not
    // enabled in this session survive a round trip too.
    const candidates = [...BUILT_IN_REMINDERS, ...outcome.tools.flatMap((t) => t.definition.reminders ?? []), ...this.#extraReminders];
    for (const reminder of candidates) for (const key of reminder.resources ?? []) this.resources.register(key);
    for (const registered of this.registry.list()) {
      for (const key of registered.definition.resources ?? []) this.resources.register(key);
    }
    for (const tool of outcome.tools) {
      const spec = tool.definition.params;
      if (spec) this.resources.register(paramsResource(spec.resourceId, spec.defaults));
    }
    // The state file keeps values of ids no tool declared (held, never applied), so switching
    // toolsets between runs does not lose them; GetToolState shows registered ids only.
    this.#persister = new StatePersister(this.sessionDir, () => this.resources.serialize({ includeHeld: true }), this.log);
    const persisted = await this.#persister.load();
    if (persisted !== undefined) this.resources.merge(persisted, undefined, { holdUnknown: true });
    for (const [index, tool] of outcome.tools.entries()) {
      const spec = tool.definition.params;
      if (spec) this.resources.set(paramsResource(spec.resourceId, spec.defaults), tool.params);
      this.#configuredOptions.set(tool.fqId, configuredObject(input.tools[index]));
    }
    if (initial.value !== undefined) {
      if (initial.value.params !== undefined) this.log.warn({ ids: Object.keys(initial.value.params as object) }, "initial_tool_state_json params ignored: finalize params_json wins");
      const result = this.resources.merge({ state: initial.value.state }, new Set(["state"]));
      if (result.ignored.length > 0) this.log.warn({ ignored: result.ignored }, "initial_tool_state_json entries ignored");
    }
    const toolset = new FinalizedToolset(outcome.tools);
    this.#activeReminders = selectReminders(candidates, toolset);
    this.#toolset = toolset;
    this.resources.onChange(() => this.#persister?.markDirty());
    // An unwritable state dir costs persistence, not the session; the caller hears of it (issue 22.2).
    const persister = this.#persister;
    try {
      await persister.flush(true);
    } catch (error) {
      this.log.error({ err: error, dir: this.sessionDir }, "cannot write tool state");
      return { ...outcome, stateNotSaved: { file: persister.file, reason: rustIoErrorText(error) } };
    }
    return outcome;
  }

  /**
   * Runs one tool call. Never throws: failures come back as a ToolError outcome. A call that changed
   * state answers only once the change is on disk (issue 23.1); when that write fails, a successful
   * call answers EXECUTION_FAILED saying its effect happened but its state is not saved (issue 22.2).
   */
  execute(request: ExecuteRequest): Promise<ExecuteOutcome> {
    const callId = request.callId && request.callId !== "" ? request.callId : uuidV7();
    const run = runTool(this, { ...request, callId }).then((outcome) => this.#durable(outcome, request.toolName));
    this.#active.add(run);
    void run.finally(() => this.#active.delete(run));
    return run;
  }

  /**
   * Waits until the state as of the end of a call is on disk. Changes of calls running at the same
   * time count too (the call may have seen them); their commits share one write.
   */
  async #durable(outcome: ExecuteOutcome, toolName: string): Promise<ExecuteOutcome> {
    const persister = this.#persister;
    if (!persister?.hasPendingChanges) return outcome;
    try {
      await persister.commit();
      return outcome;
    } catch (error) {
      this.log.error({ err: error, file: persister.file, tool: toolName, callId: outcome.callId }, "cannot write tool state");
      return withStateWriteFailure(outcome, toolName, persister.file, error);
    }
  }

  /**
   * Writes every state change made so far (one group-committed write), for changes made outside
   * tool calls (SetToolOptions after finalize). Rejects when the write fails.
   */
  async commitState(): Promise<void> {
    await this.#persister?.commit();
  }

  /** The effective params of a finalized tool now (SetToolOptions may change them after finalize). */
  currentParams(def: AnyToolDefinition, fallback: unknown): unknown {
    const spec = def.params;
    if (!spec) return fallback;
    const key = paramsResource(spec.resourceId, spec.defaults);
    return this.resources.has(key) ? this.resources.get(key) : fallback;
  }

  /**
   * GetToolState: waits for running calls (including ones started meanwhile), writes the
   * snapshot durably, and returns `{params, state}` with empty categories omitted.
   */
  async snapshotState(): Promise<Record<string, unknown>> {
    while (this.#active.size > 0) await Promise.allSettled([...this.#active]);
    // The host gets the state even when the disk write fails (logged).
    await this.#persister?.flush(true).catch((error: unknown) => this.log.error({ err: error, dir: this.sessionDir }, "cannot write tool state"));
    return this.resources.serialize() as Record<string, unknown>;
  }

  /** Waits for running calls, writes pending state and disposes services. */
  async close(): Promise<void> {
    while (this.#active.size > 0) await Promise.allSettled([...this.#active]);
    await this.#persister?.flush().catch((error: unknown) => this.log.error({ err: error }, "final state write failed"));
    for (const [name, service] of this.#services) {
      await Promise.resolve(this.#serviceKeys.get(name)?.dispose?.(service)).catch((error: unknown) => this.log.error({ err: error, service: name }, "service dispose failed"));
    }
    this.#services.clear();
  }

  /** Called by the executor after a successful call: completion tracking of the agent. */
  recordSuccess(clientName: string, fqId: string): void {
    const required = this.#agent?.completionRequirement?.tool;
    if (required !== undefined && (required === clientName || required === fqId || required === fqId.slice(fqId.indexOf(":") + 1))) this.#completed = true;
  }

  /** The template context of the finalized toolset (for reminders and prompts). */
  templateContext(): Record<string, unknown> {
    const toolset = this.#toolset ?? this.#previewToolset();
    return toolset ? descriptionContext(toolset, this.#systemRemindersEnabled) : descriptionContext(new FinalizedToolset([]), this.#systemRemindersEnabled);
  }

  // ---- Deprecated pre-finalize RPCs (spec §10) ----

  /** EnableTool: adds a tool to the pending config. */
  enableTool(name: string): ConfigChangeResult {
    this.#assertNotFinalized("EnableTool");
    const registered = this.pending.resolve(name);
    if (!registered) return { success: false, message: this.pending.notFoundMessage(name) };
    const added = this.pending.enable(registered.fqId);
    return { success: true, message: added ? `Tool ${registered.fqId} enabled` : `Tool ${registered.fqId} is already enabled` };
  }

  /** DisableTool: removes a tool from the pending config. */
  disableTool(name: string): ConfigChangeResult {
    this.#assertNotFinalized("DisableTool");
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
    if (!parsed.ok) return { success: false, message: `options_json failed to parse JSON: ${parsed.message}`, effectiveOptionsJson: JSON.stringify(target.effective) };
    if (!isPlainObject(parsed.value)) return { success: false, message: "options_json must be a JSON object", effectiveOptionsJson: JSON.stringify(target.effective) };
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
    this.#assertNotFinalized("SetToolOverride");
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
    this.#assertNotFinalized("ClearToolOverride");
    const registered = this.pending.resolve(name);
    if (!registered) return { success: false, message: this.pending.notFoundMessage(name) };
    const cleared = this.pending.clearOverride(registered.fqId);
    return { success: true, message: cleared ? `Overrides cleared for ${registered.fqId}` : `No overrides set for ${registered.fqId}` };
  }

  /** SetSystemReminders: the global switch (stays off when a GrokBuildConcise tool is configured). */
  setSystemReminders(enabled: boolean): ConfigChangeResult & { enabled: boolean } {
    if (enabled && this.#remindersForcedOff) {
      return { success: false, message: "System reminders stay disabled: a GrokBuildConcise tool is configured", enabled: false };
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

  // ---- Agent (deprecated agent RPCs) ----

  /**
   * Installs an agent definition (before finalize): its tools, minus disallowed ones, become the
   * pending config. Unknown names are reported and skipped.
   */
  setAgent(agent: AgentDefinition): { unknownTools: string[] } {
    this.#assertNotFinalized("setAgent");
    this.#agent = agent;
    this.#completed = false;
    const disallowed = new Set(agent.disallowedTools.map((name) => this.pending.resolve(name)?.fqId ?? name));
    const unknownTools: string[] = [];
    for (const name of agent.tools) {
      const registered = this.pending.resolve(name);
      if (!registered) unknownTools.push(name);
      else if (!disallowed.has(registered.fqId)) this.pending.enable(registered.fqId);
    }
    if (unknownTools.length > 0) this.log.warn({ unknownTools }, "agent definition names tools that are not registered");
    return { unknownTools };
  }

  get agent(): AgentDefinition | undefined {
    return this.#agent;
  }

  /** GetSystemPrompt: the agent's prompt rendered with the toolset's names ("" without an agent). */
  getSystemPrompt(variant = "full"): { systemPrompt: string; promptMode: string } {
    const agent = this.#agent;
    if (!agent) return { systemPrompt: "", promptMode: "" };
    const template = variant === "compact" && agent.compactPromptTemplate !== undefined ? agent.compactPromptTemplate : agent.promptTemplate;
    return { systemPrompt: renderTemplate(template, this.templateContext()), promptMode: agent.promptMode };
  }

  /** GetAgentInfo, or undefined without an agent. */
  getAgentInfo(): AgentInfo | undefined {
    const agent = this.#agent;
    if (!agent) return undefined;
    return {
      name: agent.name,
      description: agent.description,
      tools: [...agent.tools],
      disallowedTools: [...agent.disallowedTools],
      permissionMode: agent.permissionMode,
      outputFormat: agent.outputFormat,
      ...(agent.completionRequirement ? { completionRequirement: { ...agent.completionRequirement } } : {}),
      toolConfig: structuredClone(agent.toolConfig),
    };
  }

  /** GetCompletionState: whether the required tool succeeded since the last reset. */
  getCompletionState(): CompletionState {
    const required = this.#agent?.completionRequirement?.tool;
    return { hasRequirement: required !== undefined, requiredTool: required ?? "", completed: required !== undefined && this.#completed };
  }

  /** ResetCompletionState: start of a new model turn. */
  resetCompletionState(): void {
    this.#completed = false;
  }

  /**
   * FinalizeAgent: finalizes the toolset from the pending config (when not finalized yet) and
   * renders the system prompt. Afterwards overrides are rejected.
   */
  async finalizeAgent(): Promise<{ success: boolean; systemPrompt: string; message: string; outcome?: FinalizeOutcome }> {
    if (!this.#toolset) {
      const outcome = await this.finalize({ tools: [] });
      if (!outcome.ok) return { success: false, systemPrompt: "", message: outcome.message, outcome };
    }
    this.#agentFinalized = true;
    return { success: true, systemPrompt: this.getSystemPrompt().systemPrompt, message: "" };
  }

  get agentFinalized(): boolean {
    return this.#agentFinalized;
  }

  #assertNotFinalized(operation: string): void {
    if (this.#toolset || this.#finalizing) throw new PreconditionError(`${operation} is not allowed: ${FINALIZED_MESSAGE.charAt(0).toLowerCase()}${FINALIZED_MESSAGE.slice(1)}`);
  }

  /** A toolset built from the pending config, for rendering prompts before finalize. */
  #previewToolset(): FinalizedToolset | undefined {
    const preview = finalizeTools(this.registry, { tools: this.pending.toEntries() }, { truncation: this.#truncation, systemRemindersEnabled: this.#systemRemindersEnabled });
    return preview.ok ? new FinalizedToolset(preview.tools) : undefined;
  }

  #optionsTarget(name: string):
    | { ok: true; name: string; fqId: string; def: AnyToolDefinition; configured: Record<string, unknown>; effective: unknown; finalized: boolean }
    | { ok: false; message: string } {
    if (this.#toolset) {
      const tool = this.#toolset.byClientName(name) ?? this.#toolset.byFqId(name) ?? this.#toolset.tools.find((t) => t.definition.id === name);
      if (!tool) return { ok: false, message: `Tool not found: ${name}` };
      const configured = { ...(this.#configuredOptions.get(tool.fqId) ?? {}) };
      return { ok: true, name: tool.clientName, fqId: tool.fqId, def: tool.definition, configured, effective: this.currentParams(tool.definition, tool.params), finalized: true };
    }
    const registered = this.pending.resolve(name);
    if (!registered) return { ok: false, message: this.pending.notFoundMessage(name) };
    const configured = this.pending.configuredOptions(registered.fqId);
    const defaults = (registered.definition.params?.defaults ?? {}) as Record<string, unknown>;
    return { ok: true, name: registered.fqId, fqId: registered.fqId, def: registered.definition, configured, effective: { ...defaults, ...configured }, finalized: false };
  }

  #applyOptions(target: { fqId: string; def: AnyToolDefinition; effective: unknown; finalized: boolean }, configured: Record<string, unknown>): ToolOptionsChangeResult {
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
    if (problem) return { success: false, message: problem.path === "" ? problem.message : `${problem.path}: ${problem.message}`, effectiveOptionsJson: unchanged };
    const failure = spec.check?.(effective as never)[0];
    if (failure) return { success: false, message: failure.message, effectiveOptionsJson: unchanged };
    if (target.finalized) {
      this.#configuredOptions.set(target.fqId, configured);
      this.resources.set(paramsResource(spec.resourceId, spec.defaults), effective);
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
    violation: { toolId: "(global)", fieldPath: "initial_tool_state_json", message, expected: 'a JSON object shaped {"params": {...}, "state": {...}}', ...(badValueJson === undefined ? {} : { badValueJson }), category: "initial_tool_state_json" },
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
