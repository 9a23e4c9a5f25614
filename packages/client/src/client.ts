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
  ClearToolOverrideRequest,
  DisableToolRequest,
  EnableToolRequest,
  ExecuteToolRequest,
  FinalizeAgentRequest,
  FinalizeToolServerConfigRequest,
  GetAgentInfoRequest,
  GetCompletionStateRequest,
  GetSystemPromptRequest,
  GetSystemRemindersRequest,
  GetToolInfoRequest,
  GetToolOptionsRequest,
  GetToolStateRequest,
  GetTruncationConfigRequest,
  GrokToolsServiceService,
  ListToolsRequest,
  MAX_MESSAGE_BYTES,
  ResetCompletionStateRequest,
  ResetToolOptionsRequest,
  SetSystemRemindersRequest,
  SetToolOptionsRequest,
  SetToolOverrideRequest,
  SetTruncationConfigRequest,
  type ClearToolOverrideResponse,
  type DeepPartial,
  type DisableToolResponse,
  type EnableToolResponse,
  type ExecuteToolResponse,
  type ExecutionOptions,
  type FinalizeAgentResponse,
  type FinalizeConfigViolation,
  type FinalizeToolServerConfigResponse,
  type GetAgentInfoResponse,
  type GetCompletionStateResponse,
  type GetSystemPromptResponse,
  type GetSystemRemindersResponse,
  type GetToolOptionsResponse,
  type GetToolStateResponse,
  type GetTruncationConfigResponse,
  type ListToolsResponse,
  type MessageFns,
  type ResetCompletionStateResponse,
  type ResetToolOptionsResponse,
  type SetSystemRemindersResponse,
  type SetToolOptionsResponse,
  type SetToolOverrideResponse,
  type SetTruncationConfigResponse,
  type ToolInfo,
  type ToolStreamChunk,
} from "@grok-tools/proto";
import { toGrpcTarget } from "./address.js";
import { finalizeViolationsFrom } from "./status-details.js";
import { isServiceError, ToolsProtocolError, ToolsRpcError } from "./errors.js";
import { StreamAssembler, type StreamProgress } from "./stream-assembler.js";
import { successResult, type ToolCallResult, type ToolOutput } from "./tool-result.js";

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
}

/** FinalizeToolConfigRequest's response, with the violations of a rejected config as data. */
export type FinalizeResult = FinalizeToolServerConfigResponse & {
  /** Each problem of a rejected config (from the `grpc-status-details-bin` trailer); [] on success. */
  violations: FinalizeConfigViolation[];
};

/** Per-call options, accepted by every method. */
export interface CallOptions {
  /** Deadline of this call in milliseconds from now; overrides the client's default. */
  deadlineMs?: number;
  /** Cancels the call when aborted (the promise rejects with CANCELLED). */
  signal?: AbortSignal;
  /** Extra request metadata. */
  metadata?: Record<string, string>;
}

/** Options of executeTool: call options plus the proto's ExecutionOptions, flattened. */
export interface ExecuteOptions extends CallOptions, DeepPartial<ExecutionOptions> {
  /** Call id for tracing; the server generates one when omitted. */
  callId?: string;
}

/** Options of executeToolStream. */
export interface ExecuteStreamOptions extends ExecuteOptions {
  /** Called after every data chunk with the bytes received so far per kind. */
  onProgress?: (progress: StreamProgress) => void;
}

interface UnaryDefinition<Req, Res> {
  path: string;
  requestSerialize: (value: Req) => Buffer;
  responseDeserialize: (value: Buffer) => Res;
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
 * when done. Methods named like the RPCs take a DeepPartial request (omitted fields get their
 * proto defaults) and resolve with the response, or reject with {@link ToolsRpcError}.
 */
export class ToolsClient {
  /** The address this client was created with. */
  readonly address: string;
  private readonly channel: Client;
  private readonly authToken: string | undefined;
  private readonly defaultDeadlineMs: number | undefined;

  constructor(options: ToolsClientOptions) {
    this.address = options.address;
    this.authToken = options.authToken;
    this.defaultDeadlineMs = options.defaultDeadlineMs;
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
    const response = await this.rawExecuteTool(this.executeRequest(name, input, options), options);
    const result = response.result;
    if (!result) throw new ToolsProtocolError(`ExecuteTool for ${name} returned neither a success nor an error.`);
    if (result.$case === "error") return { ok: false, error: result.value, metadata: response.metadata, callId: response.callId };
    return successResult<TOutput>(name, result.value.outputJson, result.value.promptText, response.metadata, response.callId);
  }

  /**
   * Runs a tool over ExecuteToolStream and reassembles the chunks into the same result as
   * executeTool. Rejects with ToolsProtocolError when chunks are not contiguous, the sizes in the
   * final result do not match, or the stream ends without a final result.
   */
  async executeToolStream<TOutput = ToolOutput>(name: string, input: unknown, options: ExecuteStreamOptions = {}): Promise<ToolCallResult<TOutput>> {
    const assembler = new StreamAssembler(name, options.onProgress);
    for await (const chunk of this.rawExecuteToolStream(this.executeRequest(name, input, options), options)) {
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

  /** ExecuteTool, raw: the response as the proto defines it. */
  rawExecuteTool(request: DeepPartial<ExecuteToolRequest>, options?: CallOptions): Promise<ExecuteToolResponse> {
    return this.unary(GrokToolsServiceService.executeTool, ExecuteToolRequest, request, options);
  }

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
    const onAbort = () => call.cancel();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    let ended = false;
    try {
      for await (const chunk of call as AsyncIterable<ToolStreamChunk>) yield chunk;
      ended = true;
    } catch (error) {
      ended = true;
      throw isServiceError(error) ? new ToolsRpcError(rpcName(def.path), error) : error;
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
      if (!ended) call.cancel();
    }
  }

  /** ListTools: every registered tool before finalize, the finalized ones after. */
  listTools(request: DeepPartial<ListToolsRequest> = {}, options?: CallOptions): Promise<ListToolsResponse> {
    return this.unary(GrokToolsServiceService.listTools, ListToolsRequest, request, options);
  }

  /** GetToolInfo: one tool by name (NOT_FOUND when unknown). */
  getToolInfo(request: DeepPartial<GetToolInfoRequest>, options?: CallOptions): Promise<ToolInfo> {
    return this.unary(GrokToolsServiceService.getToolInfo, GetToolInfoRequest, request, options);
  }

  /** FinalizeToolConfigRequest: chooses and configures the tools; once per session. */
  async finalizeToolConfigRequest(request: DeepPartial<FinalizeToolServerConfigRequest>, options?: CallOptions): Promise<FinalizeResult> {
    const { response, trailers } = await this.unaryWithTrailers(GrokToolsServiceService.finalizeToolConfigRequest, FinalizeToolServerConfigRequest, request, options);
    return { ...response, violations: response.success ? [] : finalizeViolationsFrom(trailers) };
  }

  /** GetToolState: the serialized session state `{ params, state }` as JSON text. */
  getToolState(request: DeepPartial<GetToolStateRequest> = {}, options?: CallOptions): Promise<GetToolStateResponse> {
    return this.unary(GrokToolsServiceService.getToolState, GetToolStateRequest, request, options);
  }

  /** @deprecated EnableTool: use finalize. */
  enableTool(request: DeepPartial<EnableToolRequest>, options?: CallOptions): Promise<EnableToolResponse> {
    return this.unary(GrokToolsServiceService.enableTool, EnableToolRequest, request, options);
  }

  /** @deprecated DisableTool: use finalize. */
  disableTool(request: DeepPartial<DisableToolRequest>, options?: CallOptions): Promise<DisableToolResponse> {
    return this.unary(GrokToolsServiceService.disableTool, DisableToolRequest, request, options);
  }

  /** @deprecated SetToolOptions: use ToolConfigEntry.params_json in finalize. */
  setToolOptions(request: DeepPartial<SetToolOptionsRequest>, options?: CallOptions): Promise<SetToolOptionsResponse> {
    return this.unary(GrokToolsServiceService.setToolOptions, SetToolOptionsRequest, request, options);
  }

  /** @deprecated GetToolOptions: read ToolInfo.current_options_json instead. */
  getToolOptions(request: DeepPartial<GetToolOptionsRequest>, options?: CallOptions): Promise<GetToolOptionsResponse> {
    return this.unary(GrokToolsServiceService.getToolOptions, GetToolOptionsRequest, request, options);
  }

  /** @deprecated ResetToolOptions: use finalize. */
  resetToolOptions(request: DeepPartial<ResetToolOptionsRequest>, options?: CallOptions): Promise<ResetToolOptionsResponse> {
    return this.unary(GrokToolsServiceService.resetToolOptions, ResetToolOptionsRequest, request, options);
  }

  /** @deprecated SetToolOverride: use name_override / params_name_overrides in finalize. */
  setToolOverride(request: DeepPartial<SetToolOverrideRequest>, options?: CallOptions): Promise<SetToolOverrideResponse> {
    return this.unary(GrokToolsServiceService.setToolOverride, SetToolOverrideRequest, request, options);
  }

  /** @deprecated ClearToolOverride: use finalize. */
  clearToolOverride(request: DeepPartial<ClearToolOverrideRequest>, options?: CallOptions): Promise<ClearToolOverrideResponse> {
    return this.unary(GrokToolsServiceService.clearToolOverride, ClearToolOverrideRequest, request, options);
  }

  /** @deprecated SetSystemReminders: use system_reminders_enabled in finalize. */
  setSystemReminders(request: DeepPartial<SetSystemRemindersRequest>, options?: CallOptions): Promise<SetSystemRemindersResponse> {
    return this.unary(GrokToolsServiceService.setSystemReminders, SetSystemRemindersRequest, request, options);
  }

  /** @deprecated GetSystemReminders. */
  getSystemReminders(request: DeepPartial<GetSystemRemindersRequest> = {}, options?: CallOptions): Promise<GetSystemRemindersResponse> {
    return this.unary(GrokToolsServiceService.getSystemReminders, GetSystemRemindersRequest, request, options);
  }

  /** @deprecated SetTruncationConfig: use truncation in finalize. */
  setTruncationConfig(request: DeepPartial<SetTruncationConfigRequest>, options?: CallOptions): Promise<SetTruncationConfigResponse> {
    return this.unary(GrokToolsServiceService.setTruncationConfig, SetTruncationConfigRequest, request, options);
  }

  /** @deprecated GetTruncationConfig. */
  getTruncationConfig(request: DeepPartial<GetTruncationConfigRequest> = {}, options?: CallOptions): Promise<GetTruncationConfigResponse> {
    return this.unary(GrokToolsServiceService.getTruncationConfig, GetTruncationConfigRequest, request, options);
  }

  /** @deprecated GetSystemPrompt. */
  getSystemPrompt(request: DeepPartial<GetSystemPromptRequest> = {}, options?: CallOptions): Promise<GetSystemPromptResponse> {
    return this.unary(GrokToolsServiceService.getSystemPrompt, GetSystemPromptRequest, request, options);
  }

  /** @deprecated GetAgentInfo. */
  getAgentInfo(request: DeepPartial<GetAgentInfoRequest> = {}, options?: CallOptions): Promise<GetAgentInfoResponse> {
    return this.unary(GrokToolsServiceService.getAgentInfo, GetAgentInfoRequest, request, options);
  }

  /** @deprecated GetCompletionState. */
  getCompletionState(request: DeepPartial<GetCompletionStateRequest> = {}, options?: CallOptions): Promise<GetCompletionStateResponse> {
    return this.unary(GrokToolsServiceService.getCompletionState, GetCompletionStateRequest, request, options);
  }

  /** @deprecated ResetCompletionState. */
  resetCompletionState(request: DeepPartial<ResetCompletionStateRequest> = {}, options?: CallOptions): Promise<ResetCompletionStateResponse> {
    return this.unary(GrokToolsServiceService.resetCompletionState, ResetCompletionStateRequest, request, options);
  }

  /** @deprecated FinalizeAgent. */
  finalizeAgent(request: DeepPartial<FinalizeAgentRequest> = {}, options?: CallOptions): Promise<FinalizeAgentResponse> {
    return this.unary(GrokToolsServiceService.finalizeAgent, FinalizeAgentRequest, request, options);
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

  private async unary<Req, Res>(
    def: UnaryDefinition<Req, Res>,
    fns: MessageFns<Req>,
    request: DeepPartial<Req> | undefined,
    options: CallOptions = {},
  ): Promise<Res> {
    return (await this.unaryWithTrailers(def, fns, request, options)).response;
  }

  /** A unary call that also yields the trailing metadata (grpc-js reports it after the callback). */
  private unaryWithTrailers<Req, Res>(
    def: UnaryDefinition<Req, Res>,
    fns: MessageFns<Req>,
    request: DeepPartial<Req> | undefined,
    options: CallOptions = {},
  ): Promise<{ response: Res; trailers: Metadata | undefined }> {
    const rpc = rpcName(def.path);
    const message = (fns.fromPartial as (object: DeepPartial<Req>) => Req)(request ?? ({} as DeepPartial<Req>));
    return new Promise<{ response: Res; trailers: Metadata | undefined }>((resolve, reject) => {
      let response: Res | undefined;
      const call = this.channel.makeUnaryRequest(
        def.path,
        def.requestSerialize,
        def.responseDeserialize,
        message,
        this.metadata(options),
        this.grpcOptions(options),
        (error: ServiceError | null, value?: Res) => {
          options.signal?.removeEventListener("abort", onAbort);
          if (error) reject(new ToolsRpcError(rpc, error));
          else response = value as Res;
        },
      );
      call.on("status", (status: StatusObject) => {
        if (response !== undefined) resolve({ response, trailers: status.metadata });
      });
      const onAbort = () => call.cancel();
      if (options.signal?.aborted) call.cancel();
      else options.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private metadata(options: CallOptions): Metadata {
    const metadata = new Metadata();
    if (this.authToken !== undefined) metadata.set("authorization", `Bearer ${this.authToken}`);
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
