// Errors the client throws: failed RPCs (a gRPC status) and broken tool streams.
// Tool failures are not errors here: they come back as `{ ok: false, error }` results.
import { status as GrpcStatus, type Metadata, type ServiceError } from "@grpc/grpc-js";

/** A failed RPC: the server (or the channel) answered with a non-OK gRPC status. */
export class ToolsRpcError extends Error {
  /** The gRPC status code (`status.UNAVAILABLE`, `status.FAILED_PRECONDITION`, ...). */
  readonly code: GrpcStatus;
  /** The status name, e.g. "UNAVAILABLE". */
  readonly codeName: string;
  /** The status message sent by the server. */
  readonly details: string;
  /** The RPC that failed, e.g. "ListTools". */
  readonly rpc: string;
  /** Trailing metadata of the failed call. */
  readonly metadata: Metadata | undefined;

  constructor(rpc: string, error: ServiceError) {
    const codeName = GrpcStatus[error.code] ?? String(error.code);
    super(`${rpc} failed with ${codeName}: ${error.details || error.message}`, { cause: error });
    this.name = "ToolsRpcError";
    this.code = error.code;
    this.codeName = codeName;
    this.details = error.details || error.message;
    this.rpc = rpc;
    this.metadata = error.metadata;
  }
}

/**
 * The server sent something that breaks the contract: a stream whose chunks are not
 * contiguous or whose sizes disagree with its final result, or output_json that is not JSON.
 */
export class ToolsProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolsProtocolError";
  }
}

/** True for errors thrown by this package for failed RPCs. */
export function isToolsRpcError(value: unknown): value is ToolsRpcError {
  return value instanceof ToolsRpcError;
}

/** True for a grpc-js ServiceError (an Error with a numeric status code). */
export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof Error && typeof (value as Partial<ServiceError>).code === "number";
}
