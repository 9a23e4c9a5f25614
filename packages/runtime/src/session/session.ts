/**
 * Session: one agent's identity, roots, resources, services and state file, and the entry point
 * of its calls. Its toolset configuration (finalize, options, reminders switch) and its deprecated
 * agent RPCs live in their own objects (`configuration`, `agent`); calls run through `runTool`,
 * which sees the session only as a `CallHost`.
 */
import os from "node:os";
import path from "node:path";
import type { ToolRegistry } from "../registry/tool-registry.js";
import { ResourceStore } from "./resource-store.js";
import type { ServiceKey } from "../tool/service.js";
import { silentLogger, type Logger } from "../core/logger.js";
import { uuidV7 } from "../core/uuid.js";
import { StatePersister } from "./state-persister.js";
import { withStateWriteFailure } from "./state-write-error.js";
import { rustIoErrorText } from "../fs/io-error-text.js";
import { TempJournal } from "../fs/temp-journal.js";
import type { TruncationSettings } from "../output/truncation-settings.js";
import type { SessionHandle, ToolNotification } from "../tool/tool-context.js";
import type { AnyToolDefinition } from "../tool/define-tool.js";
import { DEFAULT_REMINDER_TAG, type ReminderDefinition } from "../tool/reminder.js";
import type { FinalizedToolset } from "../finalize/finalized-toolset.js";
import type { FinalizeInput, FinalizeOutcome } from "../finalize/finalize-types.js";
import type { VersionCatalog } from "../finalize/behavior-presets.js";
import { runTool, runToolTracked } from "../execute/run-tool.js";
import { CallsInFlight } from "./calls-in-flight.js";
import type { CallHost } from "../execute/call-host.js";
import type { ExecuteOutcome, ExecuteRequest } from "../execute/execute-types.js";
import { ToolsetConfiguration, type StateNotSaved } from "../toolset-config/toolset-configuration.js";
import { AgentSession } from "../agent/agent-session.js";
import {
  CallResults,
  DEFAULT_CALL_RESULTS_MAX_AGE_MS,
  DEFAULT_CALL_RESULTS_MAX_ENTRIES,
  callFingerprint,
  unlessAborted,
  type CallResultsLimits,
} from "./call-results.js";
import { isReadOnlyKind } from "../tool/tool-kind.js";
import { ErrorCode, isRetryableByDefault } from "../errors/error-code.js";
import type { AgentDefinition } from "../agent/agent-definition.js";

/** The roots of a session whose file tools may reach anywhere (`fsScope: "any"`). */
const NO_ROOTS: readonly string[] = Object.freeze([]);

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
  /**
   * Name of the session's folder under `stateDir` (default: the id made safe for a file name). A
   * server routing many sessions passes a collision-free name for ids that needed cleaning.
   */
  folderName?: string;
  log?: Logger;
  /** Receives tool notifications (the callback host, when connected). */
  onNotification?: (sessionId: string, notification: ToolNotification) => void;
  /** Version reported when a tool has none of its own. */
  runtimeVersion?: string;
  /** Reminders besides the ones namespaces and tools declare. */
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
  /** Presets and version lifecycles (tests); by default those the registered namespaces declare. */
  versionCatalog?: VersionCatalog;
  /**
   * Bounds of the idempotency record: a call with side effects and a call_id is answered from it
   * when repeated (default 256 entries, 1 hour; `maxEntries: 0` turns it off).
   */
  callResults?: Partial<CallResultsLimits>;
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

export class Session implements SessionHandle, CallHost {
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
  /** Finalize, the toolset, tool options and overrides, truncation and the reminder switch. */
  readonly configuration: ToolsetConfiguration;
  /** The deprecated agent RPCs. */
  readonly agent: AgentSession;
  #id: string;
  readonly #folderName: string | undefined;
  #roots: { id: string; roots: readonly string[] } | undefined;
  #persister: StatePersister | undefined;
  readonly #services = new Map<string, unknown>();
  readonly #serviceKeys = new Map<string, ServiceKey<unknown, SessionHandle>>();
  readonly #inFlight = new CallsInFlight();
  #onNotification: SessionOptions["onNotification"];
  readonly #callResults: CallResults;

  constructor(options: SessionOptions) {
    this.registry = options.registry;
    this.workspace = path.resolve(options.workspace);
    this.fsScope = options.fsScope ?? "workspace";
    this.#configuredRoots = this.fsScope === "any" ? [] : [this.workspace, ...(options.allowPaths ?? []).map((p) => path.resolve(p))];
    this.stateDir = path.resolve(options.stateDir ?? defaultStateDir());
    this.tempJournal = new TempJournal(this.stateDir);
    this.#id = options.id ?? "default";
    this.#folderName = options.folderName;
    this.log = options.log ?? silentLogger;
    this.#onNotification = options.onNotification;
    this.runtimeVersion = options.runtimeVersion ?? "0.1.0";
    this.reminderTag = options.reminderTag ?? DEFAULT_REMINDER_TAG;
    this.validateOutputs = options.validateOutputs ?? process.env.GROK_TOOLS_VALIDATE_OUTPUTS === "1";
    this.configuration = new ToolsetConfiguration(
      {
        registry: this.registry,
        resources: this.resources,
        log: this.log,
        adoptId: (id) => {
          this.#id = id;
        },
        openState: () => this.#openState(),
        startPersisting: () => this.#startPersisting(),
      },
      { ...(options.reminders ? { reminders: options.reminders } : {}), ...(options.versionCatalog ? { versionCatalog: options.versionCatalog } : {}) },
    );
    this.agent = new AgentSession(this.configuration, this.log);
    this.#callResults = new CallResults(
      {
        maxEntries: options.callResults?.maxEntries ?? DEFAULT_CALL_RESULTS_MAX_ENTRIES,
        maxAgeMs: options.callResults?.maxAgeMs ?? DEFAULT_CALL_RESULTS_MAX_AGE_MS,
      },
      this.log,
    );
    if (options.agent) this.agent.set(options.agent);
  }

  /**
   * Folders file tools may reach: the workspace, `--allow-path`s and this session's own folder
   * (plan files, saved web pages and terminal logs live there and must be readable); none with `fsScope: "any"`.
   */
  get roots(): readonly string[] {
    if (this.fsScope === "any") return NO_ROOTS;
    // Made again only when the id (and so the session's folder) changes: every confined read asks,
    // and a new array and path.join on each of them were garbage for nothing (#18).
    const id = this.#id;
    if (this.#roots?.id !== id) this.#roots = { id, roots: Object.freeze([...this.#configuredRoots, this.sessionDir]) };
    return this.#roots.roots;
  }

  get id(): string {
    return this.#id;
  }

  /** This session's private folder under the state dir (one per session id). */
  get sessionDir(): string {
    return path.join(this.stateDir, this.#folderName ?? sanitizeForFileName(this.#id));
  }

  get truncation(): TruncationSettings {
    return this.configuration.truncation;
  }

  get systemRemindersEnabled(): boolean {
    return this.configuration.systemRemindersEnabled;
  }

  /** The locked toolset, once finalized. */
  get toolset(): FinalizedToolset | undefined {
    return this.configuration.toolset;
  }

  get finalized(): boolean {
    return this.configuration.finalized;
  }

  /** Reminders that run after each successful call (those whose `isActive` held at finalize). */
  get activeReminders(): readonly ReminderDefinition[] {
    return this.configuration.activeReminders;
  }

  /** The service of `key` if this session created it already (metrics read it without creating one). */
  peekService<T>(key: ServiceKey<T, SessionHandle>): T | undefined {
    return this.#services.get(key.name) as T | undefined;
  }

  service<T>(key: ServiceKey<T, SessionHandle>): T {
    if (!this.#services.has(key.name)) {
      this.#services.set(key.name, key.create(this));
      this.#serviceKeys.set(key.name, key as ServiceKey<unknown, SessionHandle>);
    }
    return this.#services.get(key.name) as T;
  }

  /** Replaces where notifications go (the server connects the host's callback at finalize). */
  setNotificationSink(sink: SessionOptions["onNotification"]): void {
    this.#onNotification = sink;
  }

  /** Sends a notification to the host, if one listens. */
  notify(notification: ToolNotification): void {
    this.#onNotification?.(this.#id, notification);
  }

  /** Finalizes the toolset (see {@link ToolsetConfiguration.finalize}). */
  finalize(input: FinalizeInput): Promise<FinalizeOutcome> {
    return this.configuration.finalize(input);
  }

  /**
   * Opens the state file of the session (its id is now final). The state file keeps values of ids no
   * tool declared (held, never applied), so switching toolsets between runs does not lose them;
   * GetToolState shows registered ids only.
   */
  async #openState(): Promise<void> {
    this.#persister = new StatePersister(this.sessionDir, () => this.resources.serialize({ includeHeld: true }), this.log);
    const persisted = await this.#persister.load();
    if (persisted !== undefined) this.resources.merge(persisted, undefined, { holdUnknown: true });
  }

  /** From finalize on, every resource change is persisted; the first write happens now. */
  async #startPersisting(): Promise<StateNotSaved | undefined> {
    this.resources.onChange(() => this.#persister?.markDirty());
    // An unwritable state dir costs persistence, not the session; the caller hears of it (issue 22.2).
    const persister = this.#persister;
    if (!persister) return undefined;
    try {
      await persister.flush(true);
      return undefined;
    } catch (error) {
      this.log.error({ err: error, dir: this.sessionDir }, "cannot write tool state");
      return { file: persister.file, reason: rustIoErrorText(error) };
    }
  }
  /**
   * Runs one tool call. Never throws: failures come back as a ToolError outcome. A call that changed
   * state answers only once the change is on disk (issue 23.1); when that write fails, a successful
   * call answers EXECUTION_FAILED saying its effect happened but its state is not saved (issue 22.2).
   */
  execute(request: ExecuteRequest): Promise<ExecuteOutcome> {
    const outcome = this.executeNow(request);
    return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
  }

  /**
   * As {@link execute}, but a call answered in the turn it started (a tool body that returned its
   * result and left no state to write) comes back as its outcome rather than a promise of it, so a
   * server can answer a cheap call without a promise and a turn per layer (issue #18). Never throws.
   */
  executeNow(request: ExecuteRequest): ExecuteOutcome | Promise<ExecuteOutcome> {
    const given = request.callId !== undefined && request.callId !== "";
    if (given && this.#callResults.enabled && this.#hasSideEffects(request.toolName)) return this.#executeOnce(request, request.callId!);
    return this.#run(request, given ? request.callId! : uuidV7());
  }

  /** Whether a call of `toolName` may change something (edits, commands): only those are replayed. */
  #hasSideEffects(toolName: string): boolean {
    const tool = this.toolset?.byClientName(toolName);
    if (!tool) return false;
    return !(tool.definition.readOnly ?? isReadOnlyKind(tool.definition.kind));
  }

  /**
   * A call with side effects and a caller-given call_id runs at most once (issue #21): a repeat
   * gets the first answer (waiting for it while it runs), marked `replayed`; a repeat that asks
   * for something else is INVALID_INPUT. A first run cut by its cancellation or deadline stays in
   * flight until its tool body settled: a repeat meanwhile waits for the body and gets its outcome,
   * or runs the tool when that run ended CANCELLED (see CallResults).
   */
  async #executeOnce(request: ExecuteRequest, callId: string): Promise<ExecuteOutcome> {
    await this.#callResults.open(this.sessionDir);
    const fingerprint = callFingerprint(request);
    for (;;) {
      const found = this.#callResults.lookup(callId, fingerprint);
      if (found.kind === "replay") {
        const outcome = await unlessAborted(found.outcome, request.signal);
        if (outcome === "aborted") return this.#cancelledWhileWaiting(request, callId);
        // The first run ended without an effect and was not kept: look again (another repeat may run it already).
        if (outcome === undefined) continue;
        this.log.info({ callId, tool: request.toolName }, "call replayed from the idempotency record");
        return { ...outcome, replayed: true };
      }
      if (found.kind === "conflict") {
        const tool = this.toolset?.byClientName(request.toolName);
        return {
          ok: false,
          callId,
          error: {
            code: ErrorCode.INVALID_INPUT,
            message: `call_id '${callId}' was already used in this session for another call (${found.toolName} with another input or options); a call_id names one call, and a retry must repeat it exactly.`,
            retryable: false,
            suggestion: "Send a new call_id for a new call, or repeat the original tool name, input and options to get its result again.",
          },
          metadata: {
            durationMs: 0,
            estimatedTokens: 0,
            truncated: false,
            toolVersion: tool?.definition.version ?? this.runtimeVersion,
            contractVersion: tool?.contractVersion ?? "",
          },
        };
      }
      const run = runToolTracked(this, request, callId);
      this.#inFlight.begin();
      const answer = run.answer.then((outcome) => this.#durable(outcome, request.toolName));
      void answer.finally(() => this.#inFlight.end());
      const settled = run.settled.then((outcome) => (run.cut ? this.#durable(outcome, request.toolName) : answer));
      const recorded = this.#callResults.track(callId, fingerprint, request.toolName, settled);
      const outcome = await answer;
      // A cut call answers now (its record is written when the body settles); any other answers once its record is on disk.
      if (!run.cut) await recorded;
      return outcome;
    }
  }

  /** The answer of a repeat whose caller cancelled while it waited for the first run. */
  #cancelledWhileWaiting(request: ExecuteRequest, callId: string): ExecuteOutcome {
    const tool = this.toolset?.byClientName(request.toolName);
    return {
      ok: false,
      callId,
      error: { code: ErrorCode.CANCELLED, message: "Tool call was cancelled", retryable: isRetryableByDefault(ErrorCode.CANCELLED) },
      metadata: {
        durationMs: 0,
        estimatedTokens: 0,
        truncated: false,
        toolVersion: tool?.definition.version ?? this.runtimeVersion,
        contractVersion: tool?.contractVersion ?? "",
      },
    };
  }

  #run(request: ExecuteRequest, callId: string): ExecuteOutcome | Promise<ExecuteOutcome> {
    this.#inFlight.begin();
    const answer = runTool(this, request, callId);
    if (!(answer instanceof Promise)) return this.#ended(answer, request.toolName);
    return answer.then(
      (outcome) => this.#ended(outcome, request.toolName),
      (error: unknown) => {
        this.#inFlight.end();
        throw error;
      },
    );
  }

  /** A call's end: most calls change no state, and end here without waiting for a state write. */
  #ended(outcome: ExecuteOutcome, toolName: string): ExecuteOutcome | Promise<ExecuteOutcome> {
    if (!this.#persister?.hasPendingChanges) {
      this.#inFlight.end();
      return outcome;
    }
    return this.#durable(outcome, toolName).finally(() => this.#inFlight.end());
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
    return this.configuration.currentParams(def, fallback);
  }

  /**
   * GetToolState: waits for running calls (including ones started meanwhile), writes the
   * snapshot durably, and returns `{params, state}` with empty categories omitted.
   */
  async snapshotState(): Promise<Record<string, unknown>> {
    while (this.#inFlight.count > 0) await this.#inFlight.idle();
    // The host gets the state even when the disk write fails (logged).
    await this.#persister?.flush(true).catch((error: unknown) => this.log.error({ err: error, dir: this.sessionDir }, "cannot write tool state"));
    return this.resources.serialize() as Record<string, unknown>;
  }

  /** Waits for running calls, writes pending state and disposes services. */
  async close(): Promise<void> {
    while (this.#inFlight.count > 0) await this.#inFlight.idle();
    await this.#persister?.flush().catch((error: unknown) => this.log.error({ err: error }, "final state write failed"));
    for (const [name, service] of this.#services) {
      await Promise.resolve(this.#serviceKeys.get(name)?.dispose?.(service)).catch((error: unknown) =>
        this.log.error({ err: error, service: name }, "service dispose failed"),
      );
    }
    this.#services.clear();
  }

  /** Called by the executor after a successful call: completion tracking of the agent. */
  recordSuccess(clientName: string, fqId: string): void {
    this.agent.recordSuccess(clientName, fqId);
  }

  /** The template context of the finalized toolset (for reminders and prompts). */
  templateContext(): Record<string, unknown> {
    return this.configuration.templateContext();
  }
}
