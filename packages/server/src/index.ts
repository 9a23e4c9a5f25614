/**
 * @grok-tools/server: the gRPC server of the Grok tools runtime, embeddable with
 * createToolsServer() or run as the `grok-tools-server` command (its CLI lives in `cli.ts`,
 * behind the bin, and is not part of this API).
 */
export { BUILTIN_NAMESPACES, PROCESS_SESSION_ID, SHUTDOWN_GRACE_MS, createToolsServer, type ToolsServer, type ToolsServerOptions } from "./create-server.js";
export { loadNamespaces } from "./load-namespaces.js";
export { ServerSetupError } from "./state/state-folder.js";
export { LOCK_FILE_NAME, StateFolderInUseError, type LockHolder } from "./state/state-folder-lock.js";
export { SERVED_SERVICES } from "./grpc/health-and-reflection.js";
export { serverVersion } from "./version.js";
