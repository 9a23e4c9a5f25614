/**
 * Raw wire access to the tools service: requests encoded by hand (so that they can carry what
 * the typed client cannot: uint64 extremes, invalid UTF-8, garbage bytes) and sent through a
 * generic grpc-js client with identity serialisers.
 */
import { Client, Metadata, credentials, type ServiceError } from "@grpc/grpc-js";
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { ExecuteToolResponse, FinalizeToolServerConfigResponse } from "@grok-tools/proto";

export const SERVICE = "/xai.grok.tools.v1.GrokToolsService";

/** A string field's bytes as they go on the wire: text is UTF-8 encoded, a Buffer is sent as is. */
export type WireString = string | Buffer;

/** ExecutionOptions, with every numeric field as a decimal string so 2^64-1 survives. */
export interface WireOptions {
  timeoutMs?: string;
  background?: boolean;
  outputFormat?: number;
  workingDirectory?: WireString;
  includeFields?: WireString[];
  excludeFields?: WireString[];
  streamChunkSize?: string;
}

function bytesOf(value: WireString): Uint8Array {
  return typeof value === "string" ? Buffer.from(value, "utf8") : value;
}

/** ExecuteToolRequest, protobuf-encoded by hand. */
export function encodeExecute(toolName: WireString, inputJson: WireString, options?: WireOptions, callId?: WireString): Buffer {
  const w = new BinaryWriter();
  w.tag(1, 2).bytes(bytesOf(toolName));
  w.tag(2, 2).bytes(bytesOf(inputJson));
  if (options) {
    const o = new BinaryWriter();
    if (options.timeoutMs !== undefined) o.tag(1, 0).uint64(options.timeoutMs);
    if (options.background !== undefined) o.tag(2, 0).bool(options.background);
    if (options.outputFormat !== undefined) o.tag(3, 0).int32(options.outputFormat);
    if (options.workingDirectory !== undefined) o.tag(4, 2).bytes(bytesOf(options.workingDirectory));
    for (const f of options.includeFields ?? []) o.tag(5, 2).bytes(bytesOf(f));
    for (const f of options.excludeFields ?? []) o.tag(6, 2).bytes(bytesOf(f));
    if (options.streamChunkSize !== undefined) o.tag(7, 0).uint64(options.streamChunkSize);
    w.tag(4, 2).bytes(o.finish());
  }
  if (callId !== undefined) w.tag(5, 2).bytes(bytesOf(callId));
  return Buffer.from(w.finish());
}

/** TruncationConfig, numeric fields as decimal strings (uint32 fields still take any varint). */
export interface WireTruncation {
  defaultMaxOutputBytes?: string;
  perTool?: [WireString, string][];
  maxCharsPerLine?: string;
  maxLinesRead?: string;
}

function encodeTruncation(t: WireTruncation): Uint8Array {
  const w = new BinaryWriter();
  if (t.defaultMaxOutputBytes !== undefined) w.tag(1, 0).uint64(t.defaultMaxOutputBytes);
  for (const [key, value] of t.perTool ?? []) {
    const entry = new BinaryWriter();
    entry.tag(1, 2).bytes(bytesOf(key));
    entry.tag(2, 0).uint64(value);
    w.tag(2, 2).bytes(entry.finish());
  }
  if (t.maxCharsPerLine !== undefined) w.tag(3, 0).uint64(t.maxCharsPerLine);
  if (t.maxLinesRead !== undefined) w.tag(4, 0).uint64(t.maxLinesRead);
  return w.finish();
}

/** FinalizeToolServerConfigRequest with tool ids (and optional params_json), encoded by hand. */
export function encodeFinalize(tools: { id: WireString; paramsJson?: WireString }[], truncation?: WireTruncation): Buffer {
  const w = new BinaryWriter();
  for (const tool of tools) {
    const entry = new BinaryWriter();
    entry.tag(1, 2).bytes(bytesOf(tool.id));
    if (tool.paramsJson !== undefined) entry.tag(2, 2).bytes(bytesOf(tool.paramsJson));
    w.tag(1, 2).bytes(entry.finish());
  }
  if (truncation) w.tag(2, 2).bytes(encodeTruncation(truncation));
  return Buffer.from(w.finish());
}

/** SetTruncationConfigRequest { config = 1 }. */
export function encodeSetTruncation(truncation: WireTruncation): Buffer {
  const w = new BinaryWriter();
  w.tag(1, 2).bytes(encodeTruncation(truncation));
  return Buffer.from(w.finish());
}

/** The outcome of one raw call: the gRPC status (0 = OK) and the raw response bytes. */
export interface RawOutcome {
  status: number;
  details: string;
  response?: Buffer;
}

/** A generic client for raw calls to the tools service. */
export class RawClient {
  private readonly client: Client;
  constructor(address: string) {
    // The server sends and receives up to 64 MiB (MAX_MESSAGE_BYTES); the real client matches it.
    this.client = new Client(address, credentials.createInsecure(), {
      "grpc.max_send_message_length": 128 * 1024 * 1024,
      "grpc.max_receive_message_length": 64 * 1024 * 1024,
    });
  }
  close(): void {
    this.client.close();
  }
  unary(method: string, body: Buffer, metadata: Metadata = new Metadata(), deadlineMs = 30_000): Promise<RawOutcome> {
    const identity = (b: Buffer) => b;
    return new Promise((resolve) => {
      this.client.makeUnaryRequest(
        `${SERVICE}/${method}`,
        identity,
        identity,
        body,
        metadata,
        { deadline: Date.now() + deadlineMs },
        (error: ServiceError | null, response?: Buffer) =>
          resolve(error ? { status: error.code, details: error.details } : { status: 0, details: "", ...(response ? { response } : {}) }),
      );
    });
  }
  /** ExecuteToolStream: the status it ended with and the number of chunks received. */
  stream(body: Buffer, deadlineMs = 30_000): Promise<RawOutcome & { chunks: number }> {
    const identity = (b: Buffer) => b;
    return new Promise((resolve) => {
      let chunks = 0;
      const call = this.client.makeServerStreamRequest(`${SERVICE}/ExecuteToolStream`, identity, identity, body, new Metadata(), {
        deadline: Date.now() + deadlineMs,
      });
      call.on("data", () => chunks++);
      call.on("error", (error: ServiceError) => resolve({ status: error.code, details: error.details, chunks }));
      call.on("end", () => resolve({ status: 0, details: "", chunks }));
    });
  }
}

/** The ToolError code (or 0 for success) of a raw ExecuteTool response. */
export function executeCode(outcome: RawOutcome): { code: number; message: string } {
  if (outcome.status !== 0 || !outcome.response) return { code: -1, message: outcome.details };
  const decoded = ExecuteToolResponse.decode(outcome.response);
  if (decoded.result?.$case === "error") return { code: decoded.result.value.code, message: decoded.result.value.message };
  return { code: 0, message: decoded.result?.value.promptText ?? "" };
}

/** Whether a raw Finalize response said success. */
export function finalizeSucceeded(outcome: RawOutcome): { success: boolean; message: string } {
  if (outcome.status !== 0 || !outcome.response) return { success: false, message: outcome.details };
  const decoded = FinalizeToolServerConfigResponse.decode(outcome.response);
  return { success: decoded.success, message: decoded.message };
}
