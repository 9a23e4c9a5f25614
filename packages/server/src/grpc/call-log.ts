/**
 * One record per finished RPC: a JSON log line (call id, session id, RPC, tool, duration, outcome)
 * and the call metrics. Never the request's input, the result, or any header but the session id:
 * inputs and results carry file contents, headers carry the token.
 */
import { status as GrpcStatus, type Metadata } from "@grpc/grpc-js";
import { errorCodeName } from "@grok-tools/runtime/helpers";
import type { Logger } from "@grok-tools/runtime";
import { NO_METRICS, type ServerMetrics } from "../metrics/server-metrics.js";

/** SESSION_ID_HEADER of sessions/session-id.ts (importing it from there would close an import cycle). */
const SESSION_ID_HEADER = "x-grok-session-id";
/** Longest client-chosen text (tool name, call id, session id) copied into a log line. */
const MAX_LOGGED_CHARS = 128;

/** What a handler learns about its call while serving it (all optional). */
export interface CallNotes {
  tool?: string;
  /** Whether the tool is registered (an unknown name must not become a metrics label). */
  toolKnown?: boolean;
  callId?: string;
  sessionId?: string;
  /** The ToolError's numeric code when the response carries one. */
  toolErrorCode?: number;
}

/** Starts timing a call; the returned record's `end` records its end with the error it failed with, if any. */
export function beginCall(log: Logger, metrics: ServerMetrics, rpc: string, metadata: Metadata): CallRecord {
  return new CallRecord(log, metrics, rpc, metadata);
}

/** One call's record. A class rather than a closure over a literal: one object per call instead of three (#18). */
export class CallRecord {
  readonly notes: CallNotes = {};
  readonly #log: Logger;
  readonly #metrics: ServerMetrics;
  readonly #rpc: string;
  readonly #started = performance.now();
  #ended = false;

  constructor(log: Logger, metrics: ServerMetrics, rpc: string, metadata: Metadata) {
    this.#log = log;
    this.#metrics = metrics;
    this.#rpc = rpc;
    metrics.callStarted(rpc);
    const header = metadata.get(SESSION_ID_HEADER)[0];
    if (typeof header === "string" && header !== "") this.notes.sessionId = header;
  }

  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    const notes = this.notes;
    const rpc = this.#rpc;
    const log = this.#log;
    const durationSeconds = (performance.now() - this.#started) / 1e3;
    const outcome = error === undefined ? (notes.toolErrorCode === undefined ? "ok" : "tool_error") : statusName(error);
    const errorCode = notes.toolErrorCode === undefined ? undefined : errorCodeName(notes.toolErrorCode);
    const tool = notes.tool === undefined ? "" : notes.toolKnown ? notes.tool : "(unknown)";
    // Without metrics (the default) the labels are not built either.
    if (this.#metrics !== NO_METRICS) this.#metrics.callFinished({ rpc, tool, outcome, ...(errorCode ? { errorCode } : {}), durationSeconds });
    // Below the configured level (`--log-level warn`) the line is not built at all (issue #18).
    if (!infoEnabled(log)) return;
    log.info(
      {
        rpc,
        ...(notes.callId ? { callId: clip(notes.callId) } : {}),
        ...(notes.sessionId ? { sessionId: clip(notes.sessionId) } : {}),
        ...(notes.tool !== undefined ? { tool: clip(notes.tool) } : {}),
        durationMs: Math.round(durationSeconds * 1e4) / 10,
        outcome,
        ...(errorCode ? { errorCode } : {}),
      },
      "call",
    );
  }
}

/** Whether `log` writes info lines: pino tells (`isLevelEnabled`); a logger that cannot tell is asked to. */
function infoEnabled(log: Logger): boolean {
  const isLevelEnabled = (log as Partial<{ isLevelEnabled(level: string): boolean }>).isLevelEnabled;
  return typeof isLevelEnabled !== "function" || isLevelEnabled.call(log, "info");
}

function statusName(error: unknown): string {
  // Errors reaching here went through statusFor(): they are ServiceErrors with a numeric code.
  const code = typeof (error as { code?: unknown })?.code === "number" ? (error as { code: number }).code : GrpcStatus.INTERNAL;
  return (GrpcStatus[code] ?? "unknown").toLowerCase();
}

function clip(text: string): string {
  return text.length > MAX_LOGGED_CHARS ? `${text.slice(0, MAX_LOGGED_CHARS)}…` : text;
}
