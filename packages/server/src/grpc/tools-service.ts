/**
 * GrokToolsService over grpc-js: each RPC maps its request onto the session and the
 * result back onto the proto. Protocol problems are gRPC statuses (decision D1); tool
 * failures are ToolErrors inside successful responses. No handler lets an exception escape.
 */
import {
  status as GrpcStatus,
  Metadata,
  type ServerUnaryCall,
  type ServerWritableStream,
  type sendUnaryData,
  type ServiceError,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import {
  StreamDataKind,
  type ExecuteToolRequest,
  type ToolStreamChunk,
  type GrokToolsServiceServer,
} from "@grok-tools/proto";
import { describeTool, describeTools, violationSummary, type Logger, type Session } from "@grok-tools/runtime";
import { categoryName, fromExecuteRequest, fromTruncationConfig, toExecuteResponse, toMetadata, toProtoError, toToolInfo, toViolation } from "./to-proto.js";
import { chunkUtf8, DEFAULT_STREAM_CHUNK_BYTES, MAX_STREAM_CHUNK_BYTES } from "./stream-chunks.js";
import { encodeValidationStatus } from "./status-details.js";
import { createDeprecatedHandlers } from "./deprecated-rpcs.js";

/** What the service needs from its server. */
export interface ToolsServiceContext {
  /** The session a call addresses (one today; chosen by call metadata later). */
  sessionFor(metadata: Metadata): Session;
  /** Throws a ServiceError when the call is not allowed (auth, shutting down). */
  admit(metadata: Metadata): void;
  log: Logger;
  /** Handlers of the deprecated pre-finalize RPCs, when present. */
  deprecated?: Partial<GrokToolsServiceServer>;
}

/** A gRPC status error. */
export function grpcError(code: GrpcStatus, details: string, metadata?: Metadata): ServiceError {
  const error = new Error(details) as ServiceError;
  error.code = code;
  error.details = details;
  error.metadata = metadata ?? new Metadata();
  return error;
}

function isServiceError(value: unknown): value is ServiceError {
  return typeof value === "object" && value !== null && typeof (value as ServiceError).code === "number" && "details" in value;
}

type Unary<Req, Res> = (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => void;

/** Wraps an async unary handler: admission, and any throw becomes a status, never a crash. */
function unary<Req, Res>(
  ctx: ToolsServiceContext,
  name: string,
  fn: (req: Req, call: ServerUnaryCall<Req, Res>, trailers: Metadata) => Promise<Res> | Res,
): Unary<Req, Res> {
  return (call, callback) => {
    const trailers = new Metadata();
    (async () => {
      ctx.admit(call.metadata);
      return fn(call.request, call, trailers);
    })().then(
      (response) => callback(null, response, trailers),
      (error: unknown) => {
        if (isServiceError(error)) return callback(error);
        ctx.log.error({ err: error, rpc: name }, "rpc handler failed");
        callback(grpcError(GrpcStatus.INTERNAL, `${name} failed: internal error (see the server log)`));
      },
    );
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function unimplemented(ctx: ToolsServiceContext, rpc: string, area: string): Unary<any, any> {
  return unary(ctx, rpc, () => {
    throw grpcError(GrpcStatus.UNIMPLEMENTED, `${rpc} is not available in this server yet: it arrives with ${area}.`);
  });
}

/** Builds the service implementation. */
export function createToolsService(ctx: ToolsServiceContext): UntypedServiceImplementation {
  // The deprecated RPCs map onto the session's pre-finalize API unless the server brings its own.
  const deprecated: Partial<GrokToolsServiceServer> = ctx.deprecated ?? createDeprecatedHandlers(ctx);
  const service: GrokToolsServiceServer = {
    executeTool: unary(ctx, "ExecuteTool", async (req: ExecuteToolRequest, call) => {
      const session = ctx.sessionFor(call.metadata);
      const controller = new AbortController();
      const onCancel = () => controller.abort(new Error("cancelled"));
      call.on("cancelled", onCancel);
      try {
        return toExecuteResponse(await session.execute(fromExecuteRequest(req, controller.signal)));
      } finally {
        call.off("cancelled", onCancel);
      }
    }),

    executeToolStream: (call: ServerWritableStream<ExecuteToolRequest, ToolStreamChunk>) => {
      void streamExecution(ctx, call);
    },

    listTools: unary(ctx, "ListTools", (req, call) => {
      const session = ctx.sessionFor(call.metadata);
      const category = categoryName(req.category);
      const all = describeTools(session, { includeDisabled: true, includeSchemas: req.includeSchemas });
      const inScope = all.filter((d) => category === undefined || d.category === category);
      const shown = inScope.filter((d) => !session.finalized || d.enabled || req.includeDisabled);
      return { tools: shown.map(toToolInfo), totalCount: inScope.length, enabledCount: inScope.filter((d) => d.enabled).length };
    }),

    getToolInfo: unary(ctx, "GetToolInfo", (req, call) => {
      const info = describeTool(ctx.sessionFor(call.metadata), req.toolName);
      if (!info) throw grpcError(GrpcStatus.NOT_FOUND, `Tool not found: ${req.toolName}`);
      return toToolInfo(info);
    }),

    finalizeToolConfigRequest: unary(ctx, "FinalizeToolConfigRequest", async (req, call, trailers) => {
      const session = ctx.sessionFor(call.metadata);
      if (session.finalized) {
        throw grpcError(GrpcStatus.FAILED_PRECONDITION, "Tool configuration is already finalized for this session; the toolset is locked.");
      }
      const outcome = await session.finalize({
        tools: req.tools.map((t) => ({
          id: t.id,
          ...(t.paramsJson === undefined ? {} : { paramsJson: t.paramsJson }),
          ...(t.nameOverride === undefined ? {} : { nameOverride: t.nameOverride }),
          paramsNameOverrides: { ...t.paramsNameOverrides },
          ...(t.behaviorVersion === undefined ? {} : { behaviorVersion: t.behaviorVersion }),
          ...(t.descriptionOverride === undefined ? {} : { descriptionOverride: t.descriptionOverride }),
        })),
        ...(req.behaviorPreset === undefined ? {} : { behaviorPreset: req.behaviorPreset }),
        ...(req.truncation ? { truncation: fromTruncationConfig(req.truncation)! } : {}),
        systemRemindersEnabled: req.systemRemindersEnabled,
        ...(req.initialToolStateJson === undefined ? {} : { initialToolStateJson: req.initialToolStateJson }),
        ...(req.sessionId ? { sessionId: req.sessionId } : {}),
      });
      if (!outcome.ok) {
        const violations = outcome.violations.map(toViolation);
        // The response says success=false; the trailer carries the same violations as standard status details.
        trailers.set("grpc-status-details-bin", Buffer.from(encodeValidationStatus(GrpcStatus.INVALID_ARGUMENT, outcome.message, { violations })));
        ctx.log.info({ violations: outcome.violations.map(violationSummary) }, "finalize rejected");
        return { success: false, message: outcome.message, tools: [], versionWarnings: [] };
      }
      ctx.log.info({ tools: outcome.tools.map((t) => t.fqId), session: session.id }, "toolset finalized");
      return {
        success: true,
        message: `Finalized ${outcome.tools.length} tool(s)`,
        tools: describeTools(session).map(toToolInfo),
        versionWarnings: outcome.warnings.map((w) => ({ ...w })),
      };
    }),

    getToolState: unary(ctx, "GetToolState", async (_req, call) => {
      const state = await ctx.sessionFor(call.metadata).snapshotState();
      return { stateJson: JSON.stringify(state) };
    }),

    enableTool: deprecated.enableTool ?? unimplemented(ctx, "EnableTool", "the runtime issue (deprecated pre-finalize API)"),
    disableTool: deprecated.disableTool ?? unimplemented(ctx, "DisableTool", "the runtime issue (deprecated pre-finalize API)"),
    setToolOptions: deprecated.setToolOptions ?? unimplemented(ctx, "SetToolOptions", "the runtime issue (deprecated pre-finalize API)"),
    getToolOptions: deprecated.getToolOptions ?? unimplemented(ctx, "GetToolOptions", "the runtime issue (deprecated pre-finalize API)"),
    resetToolOptions: deprecated.resetToolOptions ?? unimplemented(ctx, "ResetToolOptions", "the runtime issue (deprecated pre-finalize API)"),
    setToolOverride: deprecated.setToolOverride ?? unimplemented(ctx, "SetToolOverride", "the runtime issue (deprecated pre-finalize API)"),
    clearToolOverride: deprecated.clearToolOverride ?? unimplemented(ctx, "ClearToolOverride", "the runtime issue (deprecated pre-finalize API)"),
    setSystemReminders: deprecated.setSystemReminders ?? unimplemented(ctx, "SetSystemReminders", "the runtime issue (system reminders)"),
    getSystemReminders: deprecated.getSystemReminders ?? unimplemented(ctx, "GetSystemReminders", "the runtime issue (system reminders)"),
    setTruncationConfig: deprecated.setTruncationConfig ?? unimplemented(ctx, "SetTruncationConfig", "the runtime issue (truncation)"),
    getTruncationConfig: deprecated.getTruncationConfig ?? unimplemented(ctx, "GetTruncationConfig", "the runtime issue (truncation)"),
    getSystemPrompt: deprecated.getSystemPrompt ?? unimplemented(ctx, "GetSystemPrompt", "the runtime issue (agent definitions)"),
    getAgentInfo: deprecated.getAgentInfo ?? unimplemented(ctx, "GetAgentInfo", "the runtime issue (agent definitions)"),
    getCompletionState: deprecated.getCompletionState ?? unimplemented(ctx, "GetCompletionState", "the runtime issue (agent definitions)"),
    resetCompletionState: deprecated.resetCompletionState ?? unimplemented(ctx, "ResetCompletionState", "the runtime issue (agent definitions)"),
    finalizeAgent: deprecated.finalizeAgent ?? unimplemented(ctx, "FinalizeAgent", "the runtime issue (agent definitions)"),
  };
  return service;
}

/** ExecuteToolStream per decision D6: prompt_text chunks, output_json chunks, then the final result. */
async function streamExecution(ctx: ToolsServiceContext, call: ServerWritableStream<ExecuteToolRequest, ToolStreamChunk>): Promise<void> {
  try {
    ctx.admit(call.metadata);
    const req = call.request;
    const size = req.options?.streamChunkSize ?? 0;
    if (size > MAX_STREAM_CHUNK_BYTES) {
      throw grpcError(GrpcStatus.INVALID_ARGUMENT, `stream_chunk_size ${size} exceeds the maximum of ${MAX_STREAM_CHUNK_BYTES} bytes (4 MiB)`);
    }
    const chunkSize = size === 0 ? DEFAULT_STREAM_CHUNK_BYTES : size;
    const controller = new AbortController();
    call.on("cancelled", () => controller.abort(new Error("cancelled")));
    const outcome = await ctx.sessionFor(call.metadata).execute(fromExecuteRequest(req, controller.signal));
    if (call.cancelled) return;
    const callId = outcome.callId;
    if (!outcome.ok) {
      await write(call, { callId, chunk: { $case: "finalResult", value: { metadata: toMetadata(outcome.metadata), error: toProtoError(outcome.error), promptTextSize: 0, outputJsonSize: 0 } } });
      call.end();
      return;
    }
    const prompt = chunkUtf8(outcome.promptText, chunkSize);
    const output = chunkUtf8(outcome.outputJson, chunkSize);
    for (const c of prompt) await write(call, { callId, chunk: { $case: "data", value: { kind: StreamDataKind.STREAM_DATA_KIND_PROMPT_TEXT, data: c.data, offset: c.offset } } });
    for (const c of output) await write(call, { callId, chunk: { $case: "data", value: { kind: StreamDataKind.STREAM_DATA_KIND_OUTPUT_JSON, data: c.data, offset: c.offset } } });
    await write(call, {
      callId,
      chunk: {
        $case: "finalResult",
        value: {
          metadata: toMetadata(outcome.metadata),
          promptTextSize: Buffer.byteLength(outcome.promptText, "utf8"),
          outputJsonSize: Buffer.byteLength(outcome.outputJson, "utf8"),
        },
      },
    });
    call.end();
  } catch (error) {
    if (isServiceError(error)) {
      call.emit("error", error);
      return;
    }
    ctx.log.error({ err: error, rpc: "ExecuteToolStream" }, "rpc handler failed");
    call.emit("error", grpcError(GrpcStatus.INTERNAL, "ExecuteToolStream failed: internal error (see the server log)"));
  }
}

/** Writes one message, waiting for drain so a large result never piles up in memory. */
function write(call: ServerWritableStream<ExecuteToolRequest, ToolStreamChunk>, chunk: ToolStreamChunk): Promise<void> {
  return new Promise((resolve) => {
    if (call.write(chunk)) resolve();
    else call.once("drain", resolve);
  });
}
