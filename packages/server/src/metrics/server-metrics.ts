/**
 * What the server counts, behind a small interface (the gRPC layer and the session registry call it),
 * and its Prometheus implementation with prom-client: calls by RPC, tool and outcome, call durations,
 * calls in flight, running tasks, sessions, evictions, tool errors by code, and the process metrics.
 */
import { createRequire } from "node:module";
import type { Registry } from "prom-client";

/** One finished RPC, as the metrics and the call log see it. */
export interface FinishedCall {
  rpc: string;
  /** The tool an ExecuteTool call ran: a registered name, or "(unknown)"; "" for other RPCs. */
  tool: string;
  /** `ok`, `tool_error` (a ToolError in a successful response), or the gRPC status (`unauthenticated` ...). */
  outcome: string;
  /** The ToolError's code name when outcome is tool_error (`FILE_NOT_FOUND`). */
  errorCode?: string;
  durationSeconds: number;
}

/** The counters the server keeps. All methods are cheap and never throw. */
export interface ServerMetrics {
  callStarted(rpc: string): void;
  callFinished(call: FinishedCall): void;
  /** The number of live sessions (the session registry calls it whenever the number changes). */
  setSessions(count: number): void;
  /** One session evicted (`idle`, `limit`, ...). */
  sessionEvicted(reason: string): void;
}

/** Metrics that count nothing (the default of an embedded server). */
export const NO_METRICS: ServerMetrics = {
  callStarted: () => undefined,
  callFinished: () => undefined,
  setSessions: () => undefined,
  sessionEvicted: () => undefined,
};

/** Metric name prefix. */
export const METRIC_PREFIX = "grok_tools_";

/** Duration buckets (seconds): tool calls range from sub-millisecond reads to long shell commands. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/** The Prometheus implementation and its registry. */
export interface PrometheusMetrics extends ServerMetrics {
  readonly registry: Registry;
}

/**
 * Registers the server's metrics (and, unless `processMetrics` is false, prom-client's process and
 * Node.js metrics) in a new registry. `runningTasks` is read at each scrape.
 */
export function createPrometheusMetrics(options: { runningTasks: () => number; processMetrics?: boolean }): PrometheusMetrics {
  // Required here, not imported (issue #18): prom-client and the OpenTelemetry API it loads are
  // about a hundred modules that a server without --metrics-listen never uses; CommonJS, so this
  // function stays synchronous.
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = createRequire(import.meta.url)("prom-client") as typeof import("prom-client");
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const calls = new Counter({
    name: `${METRIC_PREFIX}calls_total`,
    help: "Finished RPCs by method, tool (ExecuteTool) and outcome (ok, tool_error, or the gRPC status).",
    labelNames: ["rpc", "tool", "outcome"],
    registers: [registry],
  });
  const durations = new Histogram({
    name: `${METRIC_PREFIX}call_duration_seconds`,
    help: "Duration of finished RPCs by method and tool.",
    labelNames: ["rpc", "tool"],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const toolErrors = new Counter({
    name: `${METRIC_PREFIX}tool_errors_total`,
    help: "ToolErrors answered by tool and error code.",
    labelNames: ["tool", "code"],
    registers: [registry],
  });
  const inFlight = new Gauge({ name: `${METRIC_PREFIX}calls_in_flight`, help: "RPCs being served now.", labelNames: ["rpc"], registers: [registry] });
  const sessions = new Gauge({ name: `${METRIC_PREFIX}sessions`, help: "Live sessions in this process.", registers: [registry] });
  const evictions = new Counter({
    name: `${METRIC_PREFIX}session_evictions_total`,
    help: "Sessions evicted from memory (state flushed first), by reason.",
    labelNames: ["reason"],
    registers: [registry],
  });
  new Gauge({
    name: `${METRIC_PREFIX}running_tasks`,
    help: "Commands running now (foreground and background), over all sessions.",
    registers: [registry],
    collect() {
      try {
        this.set(options.runningTasks());
      } catch {
        // A scrape never fails because one session is closing.
      }
    },
  });
  return {
    registry,
    callStarted(rpc) {
      inFlight.inc({ rpc });
    },
    callFinished(call) {
      inFlight.dec({ rpc: call.rpc });
      calls.inc({ rpc: call.rpc, tool: call.tool, outcome: call.outcome });
      durations.observe({ rpc: call.rpc, tool: call.tool }, call.durationSeconds);
      if (call.errorCode) toolErrors.inc({ tool: call.tool, code: call.errorCode });
    },
    setSessions(count) {
      sessions.set(count);
    },
    sessionEvicted(reason) {
      evictions.inc({ reason });
    },
  };
}
