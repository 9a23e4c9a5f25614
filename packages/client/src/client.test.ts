import { afterEach, describe, expect, it } from "@jest/globals";
import { status as GrpcStatus, Metadata, type ServiceError } from "@grpc/grpc-js";
import {
  ErrorCode,
  GrokToolsServiceService,
  OutputFormat,
  StreamDataKind,
  type ExecuteToolRequest,
  type ExecuteToolResponse,
  type GrokToolsServiceServer,
  type ToolStreamChunk,
} from "@grok-tools/proto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeServer, type FakeServer } from "../test/fake-server.js";
import { createToolsClient, type ToolsClient } from "./client.js";
import { ToolsProtocolError, ToolsRpcError } from "./errors.js";

let server: FakeServer | undefined;
let client: ToolsClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(overrides: Partial<GrokToolsServiceServer> = {}, options: { authToken?: string; defaultDeadlineMs?: number } = {}) {
  server = await startFakeServer(overrides);
  client = createToolsClient({ address: server.address, ...options });
  return { server, client };
}

function statusError(code: GrpcStatus, details: string): ServiceError {
  return Object.assign(new Error(details), { code, details, metadata: new Metadata() });
}

const success = (outputJson: string, promptText: string): ExecuteToolResponse => ({
  callId: "call-1",
  result: { $case: "success", value: { outputJson, promptText } },
  metadata: { durationMs: 3, estimatedTokens: 1, truncated: false, toolVersion: "1", contractVersion: "current" },
});

describe("createToolsClient", () => {
  it("has a method for every RPC of GrokToolsService, and each reaches the server", async () => {
    const { server, client } = await setup();
    const unary = Object.entries(GrokToolsServiceService).filter(([, def]) => !def.responseStream);
    expect(Object.keys(GrokToolsServiceService)).toHaveLength(22);
    for (const [key] of unary) {
      const method = key === "executeTool" ? "rawExecuteTool" : key;
      await (client as unknown as Record<string, (req: object) => Promise<unknown>>)[method]!({});
    }
    for await (const _ of client.rawExecuteToolStream({ toolName: "x" })) {
      throw new Error("the fake stream is empty");
    }
    const rpcs = Object.values(GrokToolsServiceService).map((def) => def.path.split("/").pop());
    expect(server.calls.map((c) => c.rpc).sort()).toEqual([...rpcs].sort());
  });

  it("fills omitted request fields with their proto defaults", async () => {
    const { server, client } = await setup();
    await client.finalize({ tools: [{ id: "GrokBuild:read_file" }] });
    expect(server.calls[0]!.request).toMatchObject({ tools: [{ id: "GrokBuild:read_file", paramsNameOverrides: {} }], systemRemindersEnabled: false });
  });

  it("sends authorization: Bearer <token> when authToken is set, and nothing otherwise", async () => {
    const { server, client } = await setup({}, { authToken: "s3cret" });
    await client.listTools();
    expect(server.calls[0]!.metadata.get("authorization")).toEqual(["Bearer s3cret"]);
    const anonymous = createToolsClient({ address: server.address });
    await anonymous.listTools();
    anonymous.close();
    expect(server.calls[1]!.metadata.get("authorization")).toEqual([]);
  });

  it("applies the per-call deadline over the client default", async () => {
    const { server, client } = await setup({}, { defaultDeadlineMs: 60_000 });
    const before = Date.now();
    await client.listTools({}, { deadlineMs: 2_000 });
    await client.getToolState();
    const [first, second] = server.calls.map((c) => Number(c.deadline));
    expect(first! - before).toBeLessThanOrEqual(2_500);
    expect(second! - before).toBeGreaterThan(30_000);
  });

  it("rejects with DEADLINE_EXCEEDED when the server is slower than the deadline", async () => {
    const { client } = await setup({ listTools: (_call, callback) => setTimeout(() => callback(null, { tools: [], totalCount: 0, enabledCount: 0 }), 1_000) });
    await expect(client.listTools({}, { deadlineMs: 100 })).rejects.toMatchObject({
      name: "ToolsRpcError",
      code: GrpcStatus.DEADLINE_EXCEEDED,
      rpc: "ListTools",
    });
  });

  it("cancels a call when its AbortSignal fires", async () => {
    const { client } = await setup({ getToolState: () => undefined });
    const controller = new AbortController();
    const pending = client.getToolState({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ code: GrpcStatus.CANCELLED });
  });

  it("turns gRPC statuses into ToolsRpcError with the status name and details", async () => {
    const { client } = await setup({
      finalizeToolConfigRequest: (_call, callback) => callback(statusError(GrpcStatus.FAILED_PRECONDITION, "already finalized")),
    });
    const error = await client.finalize({ tools: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolsRpcError);
    expect(error).toMatchObject({
      codeName: "FAILED_PRECONDITION",
      details: "already finalized",
      message: "FinalizeToolConfigRequest failed with FAILED_PRECONDITION: already finalized",
    });
  });

  it("works over a unix socket", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "gtc-"));
    try {
      server = await startFakeServer({}, `unix:${path.join(dir, "s.sock")}`);
      client = createToolsClient({ address: server.address });
      await expect(client.listTools()).resolves.toMatchObject({ tools: [] });
    } finally {
      client?.close();
      await server?.close();
      server = undefined;
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("executeTool", () => {
  it("sends the input as JSON with the execution options and parses output_json", async () => {
    const { server, client } = await setup({
      executeTool: (_call, callback) => callback(null, success('{"type":"file_content","content":"hi"}', "hi\n")),
    });
    const result = await client.executeTool(
      "read_file",
      { target_file: "a.txt" },
      { timeoutMs: 5_000, outputFormat: OutputFormat.OUTPUT_FORMAT_CONCISE, callId: "c-7", includeFields: ["content"] },
    );
    expect(result).toEqual({
      ok: true,
      output: { type: "file_content", content: "hi" },
      outputJson: '{"type":"file_content","content":"hi"}',
      promptText: "hi\n",
      metadata: expect.objectContaining({ durationMs: 3, contractVersion: "current" }),
      callId: "call-1",
    });
    const request = server.calls[0]!.request as ExecuteToolRequest;
    expect(request).toMatchObject({ toolName: "read_file", inputJson: '{"target_file":"a.txt"}', callId: "c-7" });
    expect(request.options).toMatchObject({ timeoutMs: 5_000, outputFormat: OutputFormat.OUTPUT_FORMAT_CONCISE, includeFields: ["content"] });
  });

  it("passes a string input through unchanged", async () => {
    const { server, client } = await setup({ executeTool: (_call, callback) => callback(null, success("{}", "")) });
    await client.executeTool("x", '{"a": 1}');
    expect((server.calls[0]!.request as ExecuteToolRequest).inputJson).toBe('{"a": 1}');
  });

  it("returns { ok: false, error } for a ToolError", async () => {
    const { client } = await setup({
      executeTool: (_call, callback) =>
        callback(null, {
          callId: "c",
          result: { $case: "error", value: { code: ErrorCode.ERROR_CODE_FILE_NOT_FOUND, message: "File not found: a", retryable: false, suggestion: "check" } },
        }),
    });
    const result = await client.executeTool("read_file", {});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: ErrorCode.ERROR_CODE_FILE_NOT_FOUND, message: "File not found: a", suggestion: "check" });
  });

  it("throws ToolsProtocolError for output_json that is not JSON, or a response without a result", async () => {
    const responses = [success("{nope", "x"), { callId: "c" }];
    const { client } = await setup({ executeTool: (_call, callback) => callback(null, responses.shift()!) });
    await expect(client.executeTool("t", {})).rejects.toThrow(/output_json for t that is not valid JSON/);
    await expect(client.executeTool("t", {})).rejects.toBeInstanceOf(ToolsProtocolError);
  });
});

describe("executeToolStream", () => {
  const data = (kind: StreamDataKind, text: string, offset: number): ToolStreamChunk => ({
    callId: "s-1",
    chunk: { $case: "data", value: { kind, data: Buffer.from(text), offset } },
  });
  const P = StreamDataKind.STREAM_DATA_KIND_PROMPT_TEXT;
  const O = StreamDataKind.STREAM_DATA_KIND_OUTPUT_JSON;

  it("reassembles the chunks, reports progress and returns the executeTool shape", async () => {
    const chunks: ToolStreamChunk[] = [
      data(P, "hé", 0),
      data(P, "llo", 3),
      data(O, '{"type":', 0),
      data(O, '"t"}', 8),
      {
        callId: "s-1",
        chunk: {
          $case: "finalResult",
          value: {
            promptTextSize: 6,
            outputJsonSize: 12,
            metadata: { durationMs: 1, estimatedTokens: 2, truncated: false, toolVersion: "", contractVersion: "" },
          },
        },
      },
    ];
    const { server, client } = await setup({
      executeToolStream: (call) => {
        for (const c of chunks) call.write(c);
        call.end();
      },
    });
    const progress: unknown[] = [];
    const result = await client.executeToolStream("t", { a: 1 }, { streamChunkSize: 4, onProgress: (p) => progress.push(p) });
    expect(result).toMatchObject({ ok: true, output: { type: "t" }, promptText: "héllo", callId: "s-1" });
    expect(progress).toEqual([
      { promptTextBytes: 3, outputJsonBytes: 0, liveOutputBytes: 0, chunks: 1 },
      { promptTextBytes: 6, outputJsonBytes: 0, liveOutputBytes: 0, chunks: 2 },
      { promptTextBytes: 6, outputJsonBytes: 8, liveOutputBytes: 0, chunks: 3 },
      { promptTextBytes: 6, outputJsonBytes: 12, liveOutputBytes: 0, chunks: 4 },
    ]);
    expect((server.calls[0]!.request as ExecuteToolRequest).options?.streamChunkSize).toBe(4);
  });

  it("rejects with a clear error when the server ends the stream with a status", async () => {
    const { client } = await setup({
      executeToolStream: (call) => {
        // emit("error") sends the status; destroy(error) would leave the call open (grpc-js 1.14).
        call.emit("error", statusError(GrpcStatus.INVALID_ARGUMENT, "stream_chunk_size too big"));
      },
    });
    await expect(client.executeToolStream("t", {})).rejects.toMatchObject({ name: "ToolsRpcError", codeName: "INVALID_ARGUMENT", rpc: "ExecuteToolStream" });
  });

  it("cancels the stream when its AbortSignal fires", async () => {
    let cancelled = false;
    const { client } = await setup({
      executeToolStream: (call) => {
        call.write(data(P, "ab", 0));
        call.on("cancelled", () => (cancelled = true));
      },
    });
    const controller = new AbortController();
    const pending = client.executeToolStream("t", {}, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(pending).rejects.toMatchObject({ name: "ToolsRpcError", codeName: "CANCELLED" });
    // The server hears of the cancel a moment later (polled: a busy machine can take longer than a fixed wait).
    const until = Date.now() + 10_000;
    while (!cancelled && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cancelled).toBe(true);
  });

  it("rejects when a chunk is missing", async () => {
    const { client } = await setup({
      executeToolStream: (call) => {
        call.write(data(P, "ab", 0));
        call.write(data(P, "cd", 3));
        call.end();
      },
    });
    await expect(client.executeToolStream("t", {})).rejects.toThrow("prompt_text chunk at byte offset 3, expected 2");
  });
});
