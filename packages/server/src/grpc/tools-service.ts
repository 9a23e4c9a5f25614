/**
 * GrokToolsService over grpc-js: each RPC maps its request onto the session and the
 * result back onto the proto. Protocol problems are gRPC statuses (decision D1); tool
 * failures are ToolErrors inside successful responses. No handler lets an exception escape.
 */
import { status as GrpcStatus, Metadata, type ServerWritableStream, type UntypedServiceImplementation } from "@grpc/grpc-js";
import {
  MAX_MESSAGE_BYTES,
  STATUS_DETAILS_TRAILER,
  StreamDataKind,
  type CallbackStatus,
  type ExecuteToolRequest,
  type ExecuteToolResponse,
  type FinalizeToolServerConfigRequest,
  type FinalizeToolServerConfigResponse,
  type ToolStreamChunk,
  type GrokToolsServiceServer,
} from "@grok-tools/proto";
import { CallCancellation, chunkUtf8, describeTool, describeTools, validateStreamChunkSize, violationSummary, type Session } from "@grok-tools/runtime/host";
import { ErrorCode, type Logger } from "@grok-tools/runtime";
import { uuidV7 } from "@grok-tools/runtime/helpers";
import type { ExecuteOutcome, FinalizeInput } from "@grok-tools/runtime/host";
import { SESSION_ID_HEADER, sessionIdOf } from "../sessions/session-id.js";
import { NO_METRICS, type ServerMetrics } from "../metrics/server-metrics.js";
import { beginCall, type CallNotes } from "./call-log.js";
import { categoryName, fromExecuteRequest, fromTruncationConfig, toExecuteResponse, toMetadata, toProtoError, toToolInfo, toViolation } from "./to-proto.js";
import { AnswerTrailers, grpcError, statusFor, unaryHandler } from "./unary-handler.js";
import { fitResult } from "./oversized-result.js";
import { DEFAULT_LIVE_OUTPUT_BUFFER_BYTES, LIVE_OUTPUT_HEADER, LiveOutputWriter } from "./live-output.js";
import { createDeprecatedHandlers } from "./deprecated-rpcs.js";
import { finalizeStatusDetails } from "./finalize-status-details.js";

/** What the service needs from its server. */
export interface ToolsServiceContext {
  /** The session a call addresses, when the server has only one (tests); `useSession` wins when given. */
  sessionFor(metadata: Metadata): Session;
  /**
   * Runs `fn` in the session the call's metadata names (`x-grok-session-id`), counted as one of its
   * calls; throws (or rejects with) a ServiceError when the call cannot have one (limits, bad header).
   * An answer `fn` made at once may come back as it is, not as a promise (issue #18).
   */
  useSession?<T>(metadata: Metadata, fn: (session: Session) => Promise<T> | T): Promise<T> | T;
  /**
   * Told of a successful finalize before it answers (the server saves it for warm starts). The
   * header's session id, when the call had one, is `routedId`.
   */
  onFinalized?(session: Session, input: FinalizeInput, routedId: string | undefined): Promise<void>;
  /** Throws a ServiceError when the call is not allowed (auth, shutting down). */
  admit(metadata: Metadata): void;
  log: Logger;
  /** Dials the host's callback service for a finalized session (spec §7.5). */
  connectCallback?(session: Session, address: string, secret: string | undefined, sessionId: string | undefined): Promise<CallbackStatus>;
  /** Counts every call (default: nothing). */
  metrics?: ServerMetrics;
  /** The server's message size limit (default MAX_MESSAGE_BYTES): larger ExecuteTool results answer an error. */
  maxMessageBytes?: number;
  /** Live output queued per ExecuteToolStream call for a slow client before head+tail dropping (default 8 MiB). */
  liveOutputBufferBytes?: number;
}

/**
 * Trailer of an ExecuteTool / ExecuteToolStream answer given again for a repeated call_id instead
 * of running the tool (issue #21): the response itself is the first one, unchanged.
 */
export const REPLAYED_TRAILER = "x-grok-replayed";

/** Builds the service implementation. */
export function createToolsService(ctx: ToolsServiceContext): UntypedServiceImplementation {
  const service: GrokToolsServiceServer = {
    executeTool: unaryHandler(ctx, "ExecuteTool", (req: ExecuteToolRequest, call, trailers, notes) => {
      notes.tool = req.toolName;
      // The call's cancel reads `call.cancelled` whenever the runtime asks and listens to the call's
      // event while the runtime listens: on a busy server the client's cancel can be processed before
      // the handler runs (or while a routed session warm-starts), and a missed one would let a
      // cancelled call still run its command later. A CallCancellation rather than an AbortController:
      // the latter's EventTarget was a fifth of a cheap call's server CPU (#18).
      const cancellation = new CallCancellation(call);
      return withSession(ctx, call.metadata, (session) => {
        notes.sessionId ??= session.id;
        // A call answered at once (a cheap tool) is answered without a promise (#18).
        const outcome = session.executeNow(fromExecuteRequest(req, cancellation));
        if (outcome instanceof Promise) return outcome.then((settled) => executeResponse(ctx, req, trailers, notes, settled));
        return executeResponse(ctx, req, trailers, notes, outcome);
      });
    }),

    executeToolStream: (call: ServerWritableStream<ExecuteToolRequest, ToolStreamChunk>) => {
      void streamExecution(ctx, call);
    },

    listTools: unaryHandler(ctx, "ListTools", (req, call) =>
      withSession(ctx, call.metadata, (session) => {
        const category = categoryName(req.category);
        const all = describeTools(session, { includeDisabled: true, includeSchemas: req.includeSchemas });
        const inScope = all.filter((d) => category === undefined || d.category === category);
        const shown = inScope.filter((d) => !session.finalized || d.enabled || req.includeDisabled);
        return { tools: shown.map(toToolInfo), totalCount: inScope.length, enabledCount: inScope.filter((d) => d.enabled).length };
      }),
    ),

    getToolInfo: unaryHandler(ctx, "GetToolInfo", (req, call) =>
      withSession(ctx, call.metadata, (session) => {
        const info = describeTool(session, req.toolName);
        if (!info) throw grpcError(GrpcStatus.NOT_FOUND, `Tool not found: ${req.toolName}`);
        return toToolInfo(info);
      }),
    ),

    finalizeToolConfigRequest: unaryHandler(ctx, "FinalizeToolConfigRequest", (req, call, trailers) => {
      const routedId = sessionIdOf(call.metadata);
      if (routedId !== undefined && req.sessionId && req.sessionId !== routedId) {
        throw grpcError(
          GrpcStatus.INVALID_ARGUMENT,
          `session_id '${req.sessionId}' does not match the ${SESSION_ID_HEADER} header '${routedId}'; send the same id in both, or leave session_id empty.`,
        );
      }
      return withSession(ctx, call.metadata, (session) => finalizeIn(ctx, session, req, routedId, trailers));
    }),

    getToolState: unaryHandler(ctx, "GetToolState", (_req, call) =>
      withSession(ctx, call.metadata, async (session) => {
        const state = await session.snapshotState();
        return { stateJson: JSON.stringify(state) };
      }),
    ),

    ...createDeprecatedHandlers(ctx),
  };
  return service;
}

/** FinalizeToolConfigRequest in its session: finalize, save it for warm starts, connect the callback. */
async function finalizeIn(
  ctx: ToolsServiceContext,
  session: Session,
  req: FinalizeToolServerConfigRequest,
  routedId: string | undefined,
  trailers: AnswerTrailers,
): Promise<FinalizeToolServerConfigResponse> {
  if (session.finalized) {
    throw grpcError(GrpcStatus.FAILED_PRECONDITION, "Tool configuration is already finalized for this session; the toolset is locked.");
  }
  const input: FinalizeInput = {
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
  };
  const outcome = await session.finalize(input);
  if (!outcome.ok) {
    const violations = outcome.violations.map(toViolation);
    // The response says success=false; the trailer carries the same violations as standard status details.
    const details = finalizeStatusDetails(outcome.message, violations);
    if (details) trailers.set(STATUS_DETAILS_TRAILER, details);
    ctx.log.info({ violations: outcome.violations.map(violationSummary) }, "finalize rejected");
    return { success: false, message: outcome.message, tools: [], versionWarnings: [] };
  }
  ctx.log.info({ tools: outcome.tools.map((t) => t.fqId), session: session.id }, "toolset finalized");
  await ctx.onFinalized?.(session, input, routedId);
  const callbackStatus =
    req.clientCallbackAddr && ctx.connectCallback
      ? await ctx.connectCallback(session, req.clientCallbackAddr, req.clientCallbackSecret, req.sessionId)
      : undefined;
  return {
    ...(callbackStatus ? { callbackStatus } : {}),
    success: true,
    message: `Finalized ${outcome.tools.length} tool(s)${outcome.stateNotSaved ? stateNotSavedNote(outcome.stateNotSaved) : ""}`,
    tools: describeTools(session).map(toToolInfo),
    versionWarnings: outcome.warnings.map((w) => ({ ...w })),
  };
}

/** ExecuteTool's response to a call's outcome (noted in the call's record and trailers). */
function executeResponse(
  ctx: ToolsServiceContext,
  req: ExecuteToolRequest,
  trailers: AnswerTrailers,
  notes: CallNotes,
  outcome: ExecuteOutcome,
): ExecuteToolResponse {
  noteOutcome(notes, outcome);
  if (outcome.replayed) trailers.set(REPLAYED_TRAILER, "true");
  return toExecuteResponse(fitResult(outcome, req.toolName, ctx.maxMessageBytes ?? MAX_MESSAGE_BYTES));
}

/**
 * Runs `fn` in the call's session (through the server's registry when it has one). With the
 * registry, an answer `fn` made at once may come back as it is, and a failure may be thrown.
 */
export function withSession<T>(
  ctx: Pick<ToolsServiceContext, "sessionFor" | "useSession">,
  metadata: Metadata,
  fn: (session: Session) => Promise<T> | T,
): Promise<T> | T {
  if (ctx.useSession) return ctx.useSession(metadata, fn);
  return Promise.resolve().then(() => fn(ctx.sessionFor(metadata)));
}

/**
 * ExecuteToolStream per decision D6: prompt_text chunks, output_json chunks, then the final result;
 * with the live-output header, the tool's live output first, as it is produced (issue 20).
 */
async function streamExecution(ctx: ToolsServiceContext, call: ServerWritableStream<ExecuteToolRequest, ToolStreamChunk>): Promise<void> {
  const record = beginCall(ctx.log, ctx.metrics ?? NO_METRICS, "ExecuteToolStream", call.metadata);
  try {
    ctx.admit(call.metadata);
    const req = call.request;
    record.notes.tool = req.toolName;
    const chunkSize = validateStreamChunkSize(req.options?.streamChunkSize);
    if (!chunkSize.ok) throw grpcError(GrpcStatus.INVALID_ARGUMENT, chunkSize.message);
    const controller = new CallCancellation();
    // Known before the call runs, so that live chunks carry the id the final result will.
    const requestCallId = req.callId || uuidV7();
    const live = wantsLiveOutput(call.metadata)
      ? new LiveOutputWriter(
          // Encoded chunks: the method's serializer (request-decoding.ts) sends their bytes as they are.
          { write: (chunk) => call.write(chunk as unknown as ToolStreamChunk), onceDrain: (resume) => call.once("drain", resume) },
          requestCallId,
          chunkSize.size,
          ctx.liveOutputBufferBytes ?? DEFAULT_LIVE_OUTPUT_BUFFER_BYTES,
        )
      : undefined;
    call.on("cancelled", () => {
      live?.abandon();
      controller.abort(new Error("cancelled"));
      record.end(grpcError(GrpcStatus.CANCELLED, "cancelled"));
    });
    // A cancel processed before this handler ran emitted no event (see executeTool).
    if (call.cancelled) controller.abort(new Error("cancelled"));
    const outcome = await withSession(ctx, call.metadata, (session) => {
      record.notes.sessionId ??= session.id;
      return session.execute({
        ...fromExecuteRequest(req, controller),
        callId: requestCallId,
        ...(live ? { onOutput: (bytes: Uint8Array) => live.push(bytes) } : {}),
      });
    });
    noteOutcome(record.notes, outcome);
    if (call.cancelled) {
      record.end(grpcError(GrpcStatus.CANCELLED, "cancelled"));
      return;
    }
    // Live output first, all of it (or its head+tail), then the result as in the chunked form.
    if (live) {
      await live.close();
      if (live.droppedBytes > 0) ctx.log.info({ callId: requestCallId, droppedBytes: live.droppedBytes }, "live output dropped for a slow client");
    }
    if (call.cancelled) {
      record.end(grpcError(GrpcStatus.CANCELLED, "cancelled"));
      return;
    }
    const callId = outcome.callId;
    if (!outcome.ok) {
      await write(call, {
        callId,
        chunk: {
          $case: "finalResult",
          value: { metadata: toMetadata(outcome.metadata), error: toProtoError(outcome.error), promptTextSize: 0, outputJsonSize: 0 },
        },
      });
      call.end(replayedTrailers(outcome.replayed));
      record.end();
      return;
    }
    const prompt = chunkUtf8(outcome.promptText, chunkSize.size);
    const output = chunkUtf8(outcome.outputJson, chunkSize.size);
    for (const c of prompt)
      await write(call, {
        callId,
        chunk: {
          $case: "data",
          value: {
            kind: StreamDataKind.STREAM_DATA_KIND_PROMPT_TEXT,
            data: Buffer.from(c.data.buffer, c.data.byteOffset, c.data.byteLength),
            offset: c.offset,
          },
        },
      });
    for (const c of output)
      await write(call, {
        callId,
        chunk: {
          $case: "data",
          value: {
            kind: StreamDataKind.STREAM_DATA_KIND_OUTPUT_JSON,
            data: Buffer.from(c.data.buffer, c.data.byteOffset, c.data.byteLength),
            offset: c.offset,
          },
        },
      });
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
    call.end(replayedTrailers(outcome.replayed));
    record.end();
  } catch (error) {
    const status = statusFor(error, "ExecuteToolStream", ctx.log);
    record.end(status);
    call.emit("error", status);
  }
}

/** Whether the call asked for live output (`x-grok-live-output: 1`, or `true`). */
function wantsLiveOutput(metadata: Metadata): boolean {
  const value = metadata.get(LIVE_OUTPUT_HEADER)[0];
  return typeof value === "string" && (value === "1" || value.toLowerCase() === "true");
}

/** What the call log and metrics keep of an execution: never its input or output. */
function noteOutcome(notes: CallNotes, outcome: ExecuteOutcome): void {
  notes.callId = outcome.callId;
  if (!outcome.ok) notes.toolErrorCode = outcome.error.code;
  // An unknown name is the client's text: it must not become a metrics label.
  notes.toolKnown = outcome.ok || (outcome.error.code !== ErrorCode.TOOL_NOT_FOUND && outcome.error.code !== ErrorCode.INVALID_TOOL_NAME);
}

/** The trailers of a stream's end: the replay marker when the answer is a replay. */
function replayedTrailers(replayed: true | undefined): Metadata | undefined {
  if (!replayed) return undefined;
  const trailers = new Metadata();
  trailers.set(REPLAYED_TRAILER, "true");
  return trailers;
}

/** Writes one message, waiting for drain so a large result never piles up in memory. */
function write(call: ServerWritableStream<ExecuteToolRequest, ToolStreamChunk>, chunk: ToolStreamChunk): Promise<void> {
  return new Promise((resolve) => {
    if (call.write(chunk)) return resolve();
    // A cancelled call never drains: without this, the handler would wait forever.
    const done = () => {
      call.off("drain", done);
      call.off("cancelled", done);
      resolve();
    };
    call.once("drain", done);
    call.once("cancelled", done);
  });
}

/**
 * What a finalize answer adds when the state could not be written (issue 22.2): the toolset is
 * finalized either way, so `success` stays true and the message says what was not saved.
 */
function stateNotSavedNote({ file, reason }: { file: string; reason: string }): string {
  return `; but the session state could not be saved to ${file}: ${reason}. It holds in memory, and the next tool call saves it again; until then a restart of the server would lose it.`;
}
