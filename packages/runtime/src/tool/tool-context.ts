/**
 * ToolContext: everything a running tool may touch. Tools reach the file system,
 * processes, resources and the host only through it, which keeps them testable and
 * lets one server hold many sessions.
 */
import type { ResourceStore } from "../session/resource-store.js";
import type { ServiceKey } from "./service.js";
import type { ToolKind } from "./tool-kind.js";
import type { Logger } from "../core/logger.js";
import type { TruncationSettings } from "../output/truncation-settings.js";
import type { TempJournal } from "../fs/temp-journal.js";
import type { ToolsetView } from "./toolset-view.js";

/** Client-facing names as configured at finalize (spec §2.7). */
export interface NameLookup {
  /** This tool's client name. */
  readonly self: string;
  /** Client name of the first configured tool of a kind, or undefined. */
  tool(kind: ToolKind): string | undefined;
  /** Client name of a parameter across all tools of a kind (falls back to the canonical name). */
  param(kind: ToolKind, canonical: string): string;
  /** Client name of one of this tool's own parameters. */
  ownParam(canonical: string): string;
}

/** A partial result pushed while a tool runs (incremental streaming). */
export interface PartialOutput {
  kind: "prompt_text" | "output_json";
  text: string;
}

/** A host notification, serialized with its `type` tag (spec §7.6). */
export interface ToolNotification {
  type: string;
  [field: string]: unknown;
}

/** Session facts and services a tool may use. */
export interface SessionHandle {
  readonly id: string;
  /** The workspace root (`--workspace`). */
  readonly workspace: string;
  /** Folders file tools may touch (decision D3); empty with `fsScope: "any"`. */
  readonly roots: readonly string[];
  readonly fsScope: "workspace" | "any";
  /** Where atomic writes note their temporaries, so that a restart removes them. */
  readonly tempJournal?: TempJournal;
  /** This session's private folder (terminal logs, plan files, state). */
  readonly sessionDir: string;
  readonly resources: ResourceStore;
  readonly truncation: TruncationSettings;
  readonly systemRemindersEnabled: boolean;
  /** The session's instance of a service, created on first use. */
  service<T>(key: ServiceKey<T, SessionHandle>): T;
  readonly log: Logger;
}

/**
 * The per-call context of a tool. `signal`, `log` and `liveOutput` are made on first read (issue #18):
 * read or destructure them; a copy made with `{ ...ctx }` keeps only the plain fields, so name the
 * three in it: `{ ...ctx, signal: ctx.signal, log: ctx.log, liveOutput: ctx.liveOutput, cwd }`.
 */
export interface ToolContext<P = unknown> {
  readonly callId: string;
  /** The working directory of this call (the session cwd or the call's override). */
  readonly cwd: string;
  /** Effective params of this tool (defaults merged with the finalize entry). */
  readonly params: P;
  /** Resolved behaviour version (`current`, `legacy-0.4.10`), or "" for unmanaged tools. */
  readonly contractVersion: string;
  /**
   * This call's output limit, resolved from the tool's `truncation` spec, the session's truncation
   * settings and the params (spec §8.4); the number the description states.
   */
  readonly outputLimit: number;
  readonly outputFormat: "default" | "concise";
  /** Aborted when the call is cancelled or its deadline passes. */
  readonly signal: AbortSignal;
  /** The call's `timeout_ms` option, when the host set one. */
  readonly timeoutMs: number | undefined;
  /** The call asked to run in the background (`ExecutionOptions.background`). */
  readonly background: boolean;
  readonly names: NameLookup;
  /** The finalized toolset this call runs in. */
  readonly toolset: ToolsetView;
  readonly session: SessionHandle;
  /** Pushes partial output to a streaming caller; a no-op for unary calls. Prefer {@link ToolContext.emitOutput}. */
  emit(partial: PartialOutput): void;
  /**
   * The live-output hook (issue 20): hands the caller output as the tool produces it, e.g. a
   * command's stdout and stderr bytes in the order they were read, while the call still runs.
   * Live output is a preview, never part of the result: the result's prompt text stays
   * authoritative (it may be truncated, carry reminders or differ entirely). A string is sent as
   * UTF-8. Never throws and never blocks: the host caps what a slow caller has not read yet. A
   * no-op when nobody listens (unary calls, streams that did not ask) and once the call returned.
   */
  emitOutput(chunk: string | Uint8Array): void;
  /** Whether {@link ToolContext.emitOutput} reaches a listener (lets a tool skip work; calling it anyway is fine). */
  readonly liveOutput: boolean;
  /** Sends a notification to the host, when one is connected. */
  notify(notification: ToolNotification): void;
  readonly log: Logger;
}
