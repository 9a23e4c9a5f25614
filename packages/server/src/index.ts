/**
 * @grok-tools/server: the gRPC server of the Grok tools runtime, embeddable with
 * createToolsServer() or run as the `grok-tools-server` command (its CLI lives in `cli.ts`,
 * behind the bin, and is not part of this API).
 */
export {
  BUILTIN_NAMESPACES,
  DEFAULT_KEEPALIVE_TIME_MS,
  DEFAULT_KEEPALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTION_AGE_GRACE_MS,
  PROCESS_SESSION_ID,
  SHUTDOWN_GRACE_MS,
  createToolsServer,
  type ToolsServer,
  type ToolsServerOptions,
} from "./create-server.js";
export {
  DEFAULT_MAX_CALLS_PER_SESSION,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  SessionRegistry,
  type SessionLimits,
} from "./sessions/session-registry.js";
export { SESSION_ID_HEADER } from "./sessions/session-id.js";
export { REPLAYED_TRAILER } from "./grpc/tools-service.js";
export { loadNamespaces, type LoadNamespacesOptions } from "./load-namespaces.js";
export { NamespaceRegistrationError } from "./namespace-registry.js";
export { ServerSetupError } from "./state/state-folder.js";
export { LOCK_FILE_NAME, StateFolderInUseError, type LockHolder } from "./state/state-folder-lock.js";
export { SERVED_SERVICES } from "./grpc/health-and-reflection.js";
export { serverVersion } from "./version.js";
export { NO_METRICS, METRIC_PREFIX, createPrometheusMetrics, type FinishedCall, type PrometheusMetrics, type ServerMetrics } from "./metrics/server-metrics.js";
export { serveMetrics, type MetricsEndpoint } from "./metrics/metrics-endpoint.js";
