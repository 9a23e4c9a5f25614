// The promise client for GrokToolsService: one typed method per RPC, deadlines, bearer auth,
// and executeTool/executeToolStream that return parsed results. It holds no tool knowledge.
import {
  Client,
  credentials as grpcCredentials,
  Metadata,
  type CallOptions as GrpcCallOptions,
  type ChannelCredentials,
  type ClientOptions,
  type ServiceError,
  type StatusObject,
} from "@grpc/grpc-js";
import {
  ExecuteToolRequest,
  GrokToolsServiceService,
  MAX_MESSAGE_BYTES,
  type DeepPartial,
  type ExecutionOptions,
  type FinalizeConfigViolation,
  type FinalizeToolServerConfigRequest,
  type FinalizeToolServerConfigResponse,
  type ToolStreamChunk,
} from "@grok-tools/proto";
import { toGrpcTarget } from "./address.js";
import { abortedCallError, cancelOnOwnTurn } from "./cancel-call.js";
import type { CallOptions } from "./call-options.js";
import { UnaryRpcBase, unaryRpc, type UnaryRpc } from "./rpc-methods.js";
import { finalizeViolationsFrom } from "./status-details.js";
import { isServiceError, ToolsProtocolError, ToolsRpcError } from "./errors.js";
import { LIVE_OUTPUT_HEADER, StreamAssembler, type LiveOutputListener, type StreamProgress } from "./stream-assembler.js";
import { successResult, type ToolCallResult, type ToolOutput } from "./tool-result.js";
import { backoffMs, RETRYABLE_STATUSES, retryPolicy, sleep, type RetryOptions, type RetryPolicy } from "./retry-policy.js";

/** The metadata key selecting the session of a call. */
export const SESSION_ID_HEADER = "x-grok-session-id";
/** The trailer that marks an answer replayed for a repeated call_id. */
export const REPLAYED_TRAILER = "x-grok-replayed";

/** TLS settings; `true` means TLS with the system's root certificates. */
export interface ToolsClientTls {
  /** PEM root certificates to trust instead of the system's. */
  rootCerts?: Buffer;
  /** PEM private key, for mTLS. */
  privateKey?: Buffer;
  /** PEM certificate chain, for mTLS. */
  certChain?: Buffer;
}

/** Options of createToolsClient. */
export interface ToolsClientOptions {
  /** `host:port` or `unix:/path/to/socket`. */
  address: string;
  /** Sent as `authorization: Bearer <token>` on every call. */
  authToken?: string;
  /** Use TLS (plaintext when omitted or false). */
  tls?: boolean | ToolsClientTls;
  /** Deadline applied to every call that gives none of its own; no deadline when omitted. */
  defaultDeadlineMs?: number;
  /**
   * Extra grpc-js channel options. `grpc.max_receive_message_length` defaults to
   * {@link MAX_MESSAGE_BYTES} (64 MiB, what the server may send) instead of gRPC's 4 MiB.
   */
  channelOptions?: Partial<ClientOptions>;
  /** Sent as `x-grok-session-id` on every call: the server runs them in that session (default: the server's default session). */
  sessionId?: string;
  /**
   * Retries of executeTool after UNAVAILABLE or DEADLINE_EXCEEDED, with exponential backoff and
   * jitter, for calls safe to repeat: with a `callId` (the server answers a repeat from its
   * idempotency record instead of running the tool twice) or of a tool this client has seen
   * described as read-only. Each attempt gets the call's deadline afresh. `false` turns it off.
   */
  retry?: RetryOptions | false;
}

/** FinalizeToolConfigRequest's response, with the violations of a rejected config as data. */
export type FinalizeResult = FinalizeToolServerConfigResponse & {
  /** Each problem of a rejected config (from the `grpc-status-details-bin` trailer); [] on success. */
  violations: FinalizeConfigViolation[];
};

export type { CallOptions } from "./call-options.js";

/** Options of executeTool: call options plus the proto's ExecutionOptions, flattened. */
export interface ExecuteOptions extends CallOptions, DeepPartial<ExecutionOptions> {
  /** Call id for tracing; the server generates one when omitted. */
  callId?: string;
}

/** Options of executeToolStream. */
export interface ExecuteStreamOptions extends ExecuteOptions {
  /** Called after every data chunk with the bytes received so far per kind. */
  onProgress?: (progress: StreamProgress) => void;
  /**
   * Asks for live output (sends `x-grok-live-output: 1`) and receives it while the tool runs: a
   * command's raw stdout/stderr bytes as printed, with their offset in the live stream. A preview
   * only: the resolved result's promptText is the authoritative text (it may be truncated, carry
   * reminders or a footer, and a slow reader may see a drop marker in the live bytes).
   */
  onOutput?: LiveOutputListener;
}

function rpcName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function channelCredentials(tls: ToolsClientOptions["tls"]): ChannelCredentials {
  if (!tls) return grpcCredentials.createInsecure();
  if (tls === true) return grpcCredentials.createSsl();
  return grpcCredentials.createSsl(tls.rootCerts ?? null, tls.privateKey ?? null, tls.certChain ?? null);
}

/** The tool input as JSON: a string is taken as JSON already, anything else is serialized. */
function inputJson(input: unknown): string {
  return typeof input === "string" ? input : JSON.stringify(input ?? {});
}

/**
 * A client of one grok-tools server. Create it with {@link createToolsClient}; call `close()`
 * when done. Methods named like the RPCs (one per unary RPC of the generated service definition,
 * `rawExecuteTool` for ExecuteTool) take a DeepPartial request (omitted fields get their proto
 * defaults) and resolve with the response, or reject with {@link ToolsRpcError}.
 */

/** What ListTools and GetToolInfo tell about a tool that decides whether its calls may be retried. */
interface DescribedTool {
  name: string;
  capabilities?: { hasSideEffects?: boolean };
}
export class ToolsClient extends UnaryRpcBase {
  /** The address this client was created with. */
  readonly address: string;
  private readonly channel: Client;
  private readonly authToken: string | undefined;
  private readonly defaultDeadlineMs: number | undefined;
  private readonly sessionId: string | undefined;
  private readonly retry: RetryPolicy | undefined;
  /** Client tool names the server described as having no side effects (from ToolInfo answers). */
  private readonly readOnlyTools = new Set<string>();

  constructor(options: ToolsClientOptions) {
    super();
    this.address = options.address;
    this.authToken = options.authToken;
    this.defaultDeadlineMs = options.defaultDeadlineMs;
    this.sessionId = options.sessionId;
    this.retry = retryPolicy(options.retry);
    // Receive what the server may send: with gRPC's 4 MiB default a large result failed after the tool had run.
    const channelOptions = { "grpc.max_receive_message_length": MAX_MESSAGE_BYTES, ...options.channelOptions };
    this.channel = new Client(toGrpcTarget(options.address), channelCredentials(options.tls), channelOptions);
  }

  // ---------------------------------------------------------------- convenience

  /**
   * Runs a tool and returns `{ ok: true, output, promptText, metadata }` or `{ ok: false, error }`.
   * `input` is the tool's input object (a string is sent as JSON text unchanged).
   * Rejects only for RPC failures (ToolsRpcError) or a malformed response (ToolsProtocolError).
   */
  async executeTool<TOutput = ToolOutput>(name: string, input: unknown, options: ExecuteOptions = {}): Promise<ToolCallResult<TOutput>> {
    const request = this.executeRequest(name, input, options);
    const safe = options.callId !== undefined && options.callId !== "" ? true : this.readOnlyTools.has(name);
    const { response, trailers } = await this.withRetries(safe, options.signal, () => this.unaryWithTrailers(unaryRpc("executeTool"), request, options));
    const result = response.result;
    if (!result) throw new ToolsProtocolError(`ExecuteTool for ${name} returned neither a success nor an error.`);
    const replayed = trailers?.get(REPLAYED_TRAILER)[0] === "true";
    // Present only on a replay, so that ordinary results keep their shape.
    const marker = replayed ? { replayed: true } : {};
    if (result.$case === "error") return { ok: false, error: result.value, metadata: response.metadata, callId: response.callId, ...marker };
    return { ...successResult<TOutput>(name, result.value.outputJson, result.value.promptText, response.metadata, response.callId), ...marker };
  }

  /** Runs `attempt`, again after a retryable status when the call is safe to repeat. */
  private async withRetries<T>(safe: boolean, signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
    const policy = safe ? this.retry : undefined;
    for (let retry = 1; ; retry++) {
      try {
        return await attempt();
      } catch (error) {
        const retryable = error instanceof ToolsRpcError && RETRYABLE_STATUSES.has(error.code) && !signal?.aborted;
        if (!policy || !retryable || retry >= policy.maxAttempts) throw error;
        await sleep(backoffMs(policy, retry), signal);
        // A failed wait is no reason to stop: the retry then reports the channel's state.
        await this.waitForReady(policy.reconnectWaitMs).catch(() => undefined);
      }
    }
  }

  /** Notes which tools are read-only from a ToolInfo list (so that their calls may be retried). */
  private learnTools(tools: readonly DescribedTool[] | undefined): void {
    for (const tool of tools ?? []) {
      if (tool.capabilities?.hasSideEffects) this.readOnlyTools.delete(tool.name);
      else this.readOnlyTools.add(tool.name);
    }
  }

  /**
   * Runs a tool over ExecuteToolStream and reassembles the chunks into the same result as
   * executeTool; with `onOutput`, live output arrives there while the tool runs. Rejects with ToolsProtocolError when chunks are not contiguous, the sizes in the
   * final result do not match, or the stream ends without a final result.
   */
  async executeToolStream<TOutput = ToolOutput>(name: string, input: unknown, options: ExecuteStreamOptions = {}): Promise<ToolCallResult<TOutput>> {
    const assembler = new StreamAssembler(name, options.onProgress, options.onOutput);
    const callOptions = options.onOutput ? { ...options, metadata: { ...options.metadata, [LIVE_OUTPUT_HEADER]: "1" } } : options;
    for await (const chunk of this.rawExecuteToolStream(this.executeRequest(name, input, options), callOptions)) {
      assembler.push(chunk);
    }
    return assembler.finish() as ToolCallResult<TOutput>;
  }

  /** Same as {@link ToolsClient.finalizeToolConfigRequest}. */
  finalize(request: DeepPartial<FinalizeToolServerConfigRequest>, options?: CallOptions): Promise<FinalizeResult> {
    return this.finalizeToolConfigRequest(request, options);
  }

  /** Resolves when the channel is connected; rejects after `timeoutMs`. */
  waitForReady(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.channel.waitForReady(Date.now() + timeoutMs, (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Closes the channel; calls in flight are cancelled. */
  close(): void {
    this.channel.close();
  }

  // ---------------------------------------------------------------- RPCs

  /** ExecuteToolStream, raw: the chunks as they arrive. Breaking out of the loop cancels the call. */
  async *rawExecuteToolStream(request: DeepPartial<ExecuteToolRequest>, options: CallOptions = {}): AsyncGenerator<ToolStreamChunk> {
    const def = GrokToolsServiceService.executeToolStream;
    const call = this.channel.makeServerStreamRequest(
      def.path,
      def.requestSerialize,
      def.responseDeserialize,
      ExecuteToolRequest.fromPartial(request as ExecuteToolRequest),
      this.metadata(options),
      this.grpcOptions(options),
    );
    const onAbort = () => void cancelOnOwnTurn(call);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    let ended = false;
    try {
      for await (const chunk of call as AsyncIterable<ToolStreamChunk>) {
        // What arrives between the abort and the cancel (sent from a turn of its own) is no longer the caller's.
        if (!options.signal?.aborted) yield chunk;
      }
      ended = true;
    } catch (error) {
      ended = true;
      if (options.signal?.aborted) throw abortedCallError(rpcName(def.path), isServiceError(error) ? error : undefined);
      throw isServiceError(error) ? new ToolsRpcError(rpcName(def.path), error) : error;
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
      // Breaking out of the loop returns once the cancel is on its way, ahead of the caller's next call.
      if (!ended) await cancelOnOwnTurn(call);
    }
    // Ended before the cancel went out: the caller, who aborted, still gets the cancel.
    if (options.signal?.aborted) throw abortedCallError(rpcName(def.path), undefined);
  }

  /** FinalizeToolConfigRequest: chooses and configures the tools; once per session. */
  async finalizeToolConfigRequest(request: DeepPartial<FinalizeToolServerConfigRequest>, options?: CallOptions): Promise<FinalizeResult> {
    const { response, trailers } = await this.unaryWithTrailers(unaryRpc("finalizeToolConfigRequest"), request, options);
    this.learnTools(response.tools);
    return { ...response, violations: response.success ? [] : finalizeViolationsFrom(trailers) };
  }

  // ---------------------------------------------------------------- plumbing

  private executeRequest(name: string, input: unknown, options: ExecuteOptions): DeepPartial<ExecuteToolRequest> {
    const { timeoutMs, background, outputFormat, workingDirectory, includeFields, excludeFields, streamChunkSize } = options;
    return {
      toolName: name,
      inputJson: inputJson(input),
      ...(options.callId === undefined ? {} : { callId: options.callId }),
      options: { timeoutMs, background, outputFormat, workingDirectory, includeFields, excludeFields, streamChunkSize },
    };
  }

  /** The call behind every RPC method of the base class. */
  protected async invokeUnary<Req, Res>(rpc: UnaryRpc<Req, Res>, request: DeepPartial<Req> | undefined, options: CallOptions = {}): Promise<Res> {
    const { response } = await this.unaryWithTrailers(rpc, request, options);
    // ListTools and GetToolInfo describe tools: remember which are read-only.
    const described = response as { tools?: DescribedTool[]; name?: string; capabilities?: { hasSideEffects?: boolean } };
    if (Array.isArray(described.tools)) this.learnTools(described.tools);
    else if (rpc.name === "GetToolInfo" && typeof described.name === "string") this.learnTools([described as DescribedTool]);
    return response;
  }

  /** A unary call that also yields the trailing metadata (grpc-js reports it after the callback). */
  private unaryWithTrailers<Req, Res>(
    rpc: UnaryRpc<Req, Res>,
    request: DeepPartial<NoInfer<Req>> | undefined,
    options: CallOptions = {},
  ): Promise<{ response: Res; trailers: Metadata | undefined }> {
    const message = rpc.fromPartial(request ?? ({} as DeepPartial<Req>));
    return new Promise<{ response: Res; trailers: Metadata | undefined }>((resolve, reject) => {
      let response: Res | undefined;
      const call = this.channel.makeUnaryRequest(
        rpc.path,
        rpc.requestSerialize,
        rpc.responseDeserialize,
        message,
        this.metadata(options),
        this.grpcOptions(options),
        (error: ServiceError | null, value?: Res) => {
          options.signal?.removeEventListener("abort", onAbort);
          // Aborted, with the answer in before the cancel went out: the caller still gets the cancel.
          if (options.signal?.aborted) reject(abortedCallError(rpc.name, error));
          else if (error) reject(new ToolsRpcError(rpc.name, error));
          else response = value as Res;
        },
      );
      call.on("status", (status: StatusObject) => {
        if (response !== undefined) resolve({ response, trailers: status.metadata });
      });
      const onAbort = () => void cancelOnOwnTurn(call);
      // Aborted before the call started: nothing is on the wire yet, so nothing can overtake the cancel.
      if (options.signal?.aborted) call.cancel();
      else options.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private metadata(options: CallOptions): Metadata {
    const metadata = new Metadata();
    if (this.authToken !== undefined) metadata.set("authorization", `Bearer ${this.authToken}`);
    if (this.sessionId !== undefined) metadata.set(SESSION_ID_HEADER, this.sessionId);
    for (const [key, value] of Object.entries(options.metadata ?? {})) metadata.set(key, value);
    return metadata;
  }

  private grpcOptions(options: CallOptions): Partial<GrpcCallOptions> {
    const deadlineMs = options.deadlineMs ?? this.defaultDeadlineMs;
    return deadlineMs === undefined ? {} : { deadline: Date.now() + deadlineMs };
  }
}

/** Creates a client for the grok-tools server at `options.address`. */
export function createToolsClient(options: ToolsClientOptions): ToolsClient {
  return new ToolsClient(options);
}
