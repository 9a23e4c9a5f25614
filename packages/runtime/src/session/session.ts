/**
 * Session: one agent's finalized toolset, resources, services, cwd and state file.
 * Every piece of per-session state lives here, so a server can hold many sessions.
 */
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { ToolRegistry } from "../registry/tool-registry.js";
import { ResourceStore, defineResource, isPlainObject, type ResourceKey } from "./resource-store.js";
import type { ServiceKey } from "./session-service.js";
import { silentLogger, type Logger } from "./logger.js";
import { StatePersister } from "./state-persister.js";
import { TruncationSettings, type TruncationConfigInput } from "../output/truncation-settings.js";
import type { SessionHandle, ToolNotification } from "../execute/tool-context.js";
import { finalizeTools } from "../finalize/finalize-tools.js";
import { FinalizedToolset } from "../finalize/finalized-toolset.js";
import type { FinalizeInput, FinalizeOutcome } from "../finalize/finalize-types.js";
import { runTool } from "../execute/run-tool.js";
import type { ExecuteOutcome, ExecuteRequest } from "../execute/execute-types.js";

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

export class Session implements SessionHandle {
  readonly registry: ToolRegistry;
  readonly workspace: string;
  readonly roots: readonly string[];
  readonly fsScope: "workspace" | "any";
  readonly stateDir: string;
  readonly resources = new ResourceStore();
  readonly log: Logger;
  readonly runtimeVersion: string;
  #id: string;
  #truncation = new TruncationSettings();
  #systemRemindersEnabled = false;
  #toolset: FinalizedToolset | undefined;
  #persister: StatePersister | undefined;
  readonly #services = new Map<string, unknown>();
  readonly #serviceKeys = new Map<string, ServiceKey<unknown, SessionHandle>>();
  readonly #active = new Set<Promise<unknown>>();
  readonly #onNotification: SessionOptions["onNotification"];

  constructor(options: SessionOptions) {
    this.registry = options.registry;
    this.workspace = path.resolve(options.workspace);
    this.fsScope = options.fsScope ?? "workspace";
    this.roots = this.fsScope === "any" ? [] : [this.workspace, ...(options.allowPaths ?? []).map((p) => path.resolve(p))];
    this.stateDir = path.resolve(options.stateDir ?? defaultStateDir());
    this.#id = options.id ?? "default";
    this.log = options.log ?? silentLogger;
    this.#onNotification = options.onNotification;
    this.runtimeVersion = options.runtimeVersion ?? "0.1.0";
  }

  get id(): string {
    return this.#id;
  }

  /** This session's private folder under the state dir. */
  get sessionDir(): string {
    return path.join(this.stateDir, sanitizeForFileName(this.#id));
  }

  get truncation(): TruncationSettings {
    return this.#truncation;
  }

  set truncation(settings: TruncationSettings) {
    this.#truncation = settings;
  }

  get systemRemindersEnabled(): boolean {
    return this.#systemRemindersEnabled;
  }

  set systemRemindersEnabled(enabled: boolean) {
    this.#systemRemindersEnabled = enabled;
  }

  /** The locked toolset, once finalized. */
  get toolset(): FinalizedToolset | undefined {
    return this.#toolset;
  }

  get finalized(): boolean {
    return this.#toolset !== undefined;
  }

  service<T>(key: ServiceKey<T, SessionHandle>): T {
    if (!this.#services.has(key.name)) {
      this.#services.set(key.name, key.create(this));
      this.#serviceKeys.set(key.name, key as ServiceKey<unknown, SessionHandle>);
    }
    return this.#services.get(key.name) as T;
  }

  /** Sends a notification to the host, if one listens. */
  notify(notification: ToolNotification): void {
    this.#onNotification?.(this.#id, notification);
  }

  /**
   * Validates and applies a finalize request (spec §3.6): settings, toolset, persisted
   * state, effective params, then `initial_tool_state_json`. Throws only when already finalized.
   */
  async finalize(input: FinalizeInput): Promise<FinalizeOutcome> {
    if (this.#toolset) throw new Error("Tool configuration is already finalized");
    const truncation = input.truncation ? new TruncationSettings(input.truncation) : this.#truncation;
    const forceRemindersOff = input.tools.some((t) => t.id.startsWith("GrokBuildConcise:"));
    const remindersEnabled = forceRemindersOff ? false : (input.systemRemindersEnabled ?? this.#systemRemindersEnabled);
    let initialState: unknown;
    if (input.initialToolStateJson !== undefined && input.initialToolStateJson !== "") {
      try {
        initialState = JSON.parse(input.initialToolStateJson);
      } catch (error) {
        const message = `initial_tool_state_json failed to parse JSON: ${(error as Error).message}`;
        return { ok: false, message: `(global): initial_tool_state_json; ${message}`, violations: [{ toolId: "(global)", fieldPath: "initial_tool_state_json", message, category: "initial_tool_state_json" }] };
      }
      if (!isPlainObject(initialState)) {
        const message = "initial_tool_state_json must be a JSON object shaped {\"params\": {...}, \"state\": {...}}";
        return { ok: false, message: `(global): initial_tool_state_json; ${message}`, violations: [{ toolId: "(global)", fieldPath: "initial_tool_state_json", message, category: "initial_tool_state_json" }] };
      }
    }
    const outcome = finalizeTools(this.registry, input, { truncation, systemRemindersEnabled: remindersEnabled });
    if (!outcome.ok) return outcome;
    if (input.sessionId) this.#id = input.sessionId;
    this.#truncation = truncation;
    this.#systemRemindersEnabled = remindersEnabled;
    for (const tool of outcome.tools) {
      const spec = tool.definition.params;
      if (spec) this.resources.register(paramsResource(spec.resourceId, spec.defaults));
    }
    this.#persister = new StatePersister(this.sessionDir, () => this.resources.serialize(), this.log);
    const persisted = await this.#persister.load();
    if (persisted !== undefined) this.resources.merge(persisted);
    for (const tool of outcome.tools) {
      const spec = tool.definition.params;
      if (spec) this.resources.set(paramsResource(spec.resourceId, spec.defaults), tool.params);
    }
    if (initialState !== undefined) {
      const result = this.resources.merge(initialState);
      if (result.ignored.length > 0) this.log.warn({ ignored: result.ignored }, "initial_tool_state_json entries ignored");
    }
    this.#toolset = new FinalizedToolset(outcome.tools);
    this.resources.onChange(() => this.#persister?.markDirty());
    await this.#persister.flush(true);
    return outcome;
  }

  /** Runs one tool call. Never throws: failures come back as a ToolError outcome. */
  execute(request: ExecuteRequest): Promise<ExecuteOutcome> {
    const callId = request.callId && request.callId !== "" ? request.callId : randomUUID();
    const run = runTool(this, { ...request, callId });
    this.#active.add(run);
    void run.finally(() => this.#active.delete(run));
    return run;
  }

  /** The `{params, state}` snapshot after running calls finish and pending writes land. */
  async snapshotState(): Promise<Record<string, unknown>> {
    while (this.#active.size > 0) await Promise.allSettled([...this.#active]);
    await this.#persister?.flush(true);
    return this.resources.serialize() as Record<string, unknown>;
  }

  /** Flushes state and disposes services. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#active]);
    await this.#persister?.flush().catch((error: unknown) => this.log.error({ err: error }, "final state write failed"));
    for (const [name, service] of this.#services) {
      await Promise.resolve(this.#serviceKeys.get(name)?.dispose?.(service)).catch((error: unknown) => this.log.error({ err: error, service: name }, "service dispose failed"));
    }
    this.#services.clear();
  }

  /** Replaces the truncation settings (deprecated SetTruncationConfig). */
  setTruncationConfig(config: TruncationConfigInput): void {
    this.#truncation = new TruncationSettings(config);
  }
}
