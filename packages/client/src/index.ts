/**
 * @grok-tools/client: a typed promise client for the grok-tools gRPC server, stream
 * reassembly, and spawnServer to run a server as a child process. Depends on the proto only.
 */
export { createToolsClient, ToolsClient, SESSION_ID_HEADER, REPLAYED_TRAILER } from "./client.js";
export { DEFAULT_RETRY_POLICY, RETRYABLE_STATUSES, type RetryOptions } from "./retry-policy.js";
export type { CallOptions, ExecuteOptions, ExecuteStreamOptions, FinalizeResult, ToolsClientOptions, ToolsClientTls } from "./client.js";
export type { ToolCallResult, ToolCallSuccess, ToolCallFailure, ToolOutput } from "./tool-result.js";
export { LIVE_OUTPUT_HEADER, StreamAssembler } from "./stream-assembler.js";
export type { LiveOutputListener, StreamProgress } from "./stream-assembler.js";
export { ToolsRpcError, ToolsProtocolError, isToolsRpcError } from "./errors.js";
export { DEFAULT_ADDRESS, toGrpcTarget } from "./address.js";
export { spawnServer, findServerCommand, SERVER_COMMAND } from "./spawn-server.js";
export type { SpawnServerOptions, SpawnedServer } from "./spawn-server.js";
