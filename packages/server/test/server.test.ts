// The real server over loopback TCP and a unix socket, called with the generated grpc-js client.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { credentials, Metadata, status, type ServiceError, type StatusObject } from "@grpc/grpc-js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import {
  ExecuteToolRequest,
  FinalizeToolServerConfigRequest,
  GrokToolsServiceClient,
  STATUS_DETAILS_TRAILER,
  StreamDataKind,
  decodeFinalizeViolations,
  decodeRpcStatus,
  type ToolStreamChunk,
} from "@grok-tools/proto";
import { defineNamespace, defineTool, Type, ToolError, ErrorCode } from "@grok-tools/runtime";
import { createToolsServer, type ToolsServer } from "@grok-tools/server";

const echo = defineTool({
  id: "echo",
  kind: "other",
  description: "Echoes ${{ tools.by_kind.other }} text. Limit {max_output_bytes}.",
  input: Type.Object({ text: Type.String({ description: "what to echo" }), fail: Type.Optional(Type.Boolean()) }),
  output: Type.Object({ type: Type.Literal("Echo"), text: Type.String() }),
  async execute(input) {
    if (input.fail) throw new ToolError(ErrorCode.NO_MATCHES, "no match for you", { suggestion: "stop failing", filePath: "a.txt" });
    return { output: { type: "Echo" as const, text: input.text }, promptText: input.text };
  },
});
const testNamespace = defineNamespace({ name: "Test", apiVersion: 1, tools: [echo] });

function call<Req, Res>(client: GrokToolsServiceClient, method: string, req: Req, md = new Metadata()): Promise<Res> {
  const fn = (client as unknown as Record<string, (r: Req, m: Metadata, cb: (e: ServiceError | null, r: Res) => void) => void>)[method]!;
  return promisify<Req, Metadata, Res>((r, m, cb) => fn.call(client, r, m, cb as never))(req, md);
}

describe.each(["tcp", "unix"])("grok-tools server over %s", (transport) => {
  let dir: string;
  let server: ToolsServer;
  let client: GrokToolsServiceClient;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "grok-server-"));
    writeFileSync(path.join(dir, "hello.txt"), "hi\n");
    server = createToolsServer({
      workspace: dir,
      stateDir: path.join(dir, ".state"),
      builtinNamespaces: [testNamespace],
      authToken: "s3cret",
      log: { debug() {}, info() {}, warn() {}, error: (o: object, m?: string) => console.error(m, o) },
    });
    const address = await server.listen(transport === "tcp" ? "127.0.0.1:0" : `unix:${path.join(dir, "grok.sock")}`);
    client = new GrokToolsServiceClient(address, credentials.createInsecure());
  });

  afterAll(async () => {
    client.close();
    await server.shutdown(1000);
    rmSync(dir, { recursive: true, force: true });
  });

  const auth = () => {
    const md = new Metadata();
    md.set("authorization", "Bearer s3cret");
    return md;
  };

  it("refuses calls without the bearer token", async () => {
    await expect(call(client, "listTools", {}, new Metadata())).rejects.toMatchObject({ code: status.UNAUTHENTICATED });
  });

  it("lists registered tools by fully-qualified id before finalize", async () => {
    const res = await call<object, { tools: { name: string; namespace: string; enabled: boolean; description: string }[] }>(
      client,
      "listTools",
      { includeSchemas: true },
      auth(),
    );
    expect(res.tools.map((t) => [t.name, t.namespace, t.enabled])).toEqual([["Test:echo", "Test", false]]);
    expect(res.tools[0]!.description).toBe("Echoes  text. Limit {max_output_bytes}.");
  });

  it("answers TOOL_DISABLED before finalize", async () => {
    const res = await call<object, { result: { $case: string; value: { code: number; message: string } } }>(
      client,
      "executeTool",
      { toolName: "echo", inputJson: '{"text":"x"}' },
      auth(),
    );
    expect(res.result.$case).toBe("error");
    expect(res.result.value.code).toBe(ErrorCode.TOOL_DISABLED);
  });

  it("reports finalize violations in the response and the status-details trailer", async () => {
    const res = await call<object, { success: boolean; message: string }>(
      client,
      "finalizeToolConfigRequest",
      FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "Test:nope" }] }),
      auth(),
    );
    expect(res.success).toBe(false);
    expect(res.message).toBe('Test:nope: id; not found in registry; got "Test:nope"');
    // The same violations as standard google.rpc.Status details, readable with the proto package alone.
    const trailer = await new Promise<Buffer | undefined>((resolve, reject) => {
      const pending = client.finalizeToolConfigRequest(
        FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "Test:nope" }] }),
        auth(),
        (error) => error && reject(error),
      );
      pending.on("status", (s: StatusObject) => resolve(s.metadata.get(STATUS_DETAILS_TRAILER)[0] as Buffer | undefined));
    });
    expect(trailer).toBeInstanceOf(Buffer);
    expect(decodeRpcStatus(trailer!)).toMatchObject({ code: status.INVALID_ARGUMENT, message: res.message });
    expect(decodeFinalizeViolations(trailer!)).toEqual([expect.objectContaining({ toolId: "Test:nope", fieldPath: "id" })]);
  });

  it("keeps the status-details trailer small when a violation echoes a huge value, and the connection keeps answering", async () => {
    // A 200 KB value is echoed whole in the response message; as a ~270 KB trailer it made the client's
    // connection stop answering every call on it (the bad-input suite saw 30 s deadlines).
    const id = `Test:${"n".repeat(200_000)}`;
    const request = FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id }] });
    const answered = await new Promise<{ res: { success: boolean; message: string }; trailer: Buffer | undefined }>((resolve, reject) => {
      let res: { success: boolean; message: string } | undefined;
      const pending = client.finalizeToolConfigRequest(request, auth(), { deadline: Date.now() + 20_000 }, (error, value) =>
        error ? reject(error) : (res = value as unknown as { success: boolean; message: string }),
      );
      pending.on("status", (s: StatusObject) => resolve({ res: res!, trailer: s.metadata.get(STATUS_DETAILS_TRAILER)[0] as Buffer | undefined }));
    });
    expect(answered.res.success).toBe(false);
    expect(answered.res.message === `${id}: id; not found in registry; got "${id}"`).toBe(true);
    expect(answered.trailer!.length).toBeLessThanOrEqual(4096);
    const [violation] = decodeFinalizeViolations(answered.trailer!);
    expect(violation!.fieldPath).toBe("id");
    expect(violation!.toolId === `${id.slice(0, 200)}…`).toBe(true);
    expect(violation!.badValueJson === `${JSON.stringify(id).slice(0, 200)}…`).toBe(true);
    // The same client, the same connection: the next call answers.
    const next = await call<object, { success: boolean }>(
      client,
      "finalizeToolConfigRequest",
      FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "Test:nope" }] }),
      auth(),
    );
    expect(next.success).toBe(false);
  });

  it("finalizes, executes, streams, and locks the toolset", async () => {
    const fin = await call<object, { success: boolean; tools: { name: string; description: string }[] }>(
      client,
      "finalizeToolConfigRequest",
      FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "Test:echo", nameOverride: "say" }] }),
      auth(),
    );
    expect(fin.success).toBe(true);
    expect(fin.tools[0]!.description).toBe("Echoes say text. Limit 40000.");

    const ok = await call<object, { result: { $case: string; value: { promptText: string; outputJson: string } }; metadata: { estimatedTokens: number } }>(
      client,
      "executeTool",
      { toolName: "say", inputJson: '{"text":"héllo"}' },
      auth(),
    );
    expect(ok.result).toEqual({ $case: "success", value: { promptText: "héllo", outputJson: '{"type":"Echo","text":"héllo"}' } });

    const bad = await call<object, { result: { $case: string; value: { code: number; suggestion: string; filePath: string } } }>(
      client,
      "executeTool",
      { toolName: "say", inputJson: '{"text":"x","fail":true}' },
      auth(),
    );
    expect(bad.result.value).toMatchObject({ code: ErrorCode.NO_MATCHES, suggestion: "stop failing", filePath: "a.txt" });

    const missing = await call<object, { result: { value: { code: number; message: string } } }>(
      client,
      "executeTool",
      { toolName: "say", inputJson: "{}" },
      auth(),
    );
    expect(missing.result.value).toMatchObject({ code: ErrorCode.MISSING_REQUIRED_FIELD, message: "missing field `text`" });

    const text = "é".repeat(10);
    const chunks: ToolStreamChunk[] = await new Promise((resolve, reject) => {
      const got: ToolStreamChunk[] = [];
      const stream = client.executeToolStream(
        ExecuteToolRequest.fromPartial({ toolName: "say", inputJson: JSON.stringify({ text }), options: { streamChunkSize: 5 } }),
        auth(),
      );
      stream.on("data", (c: ToolStreamChunk) => got.push(c));
      stream.on("error", reject);
      stream.on("end", () => resolve(got));
    });
    const data = chunks.filter((c) => c.chunk?.$case === "data").map((c) => (c.chunk as { value: { kind: number; data: Uint8Array; offset: number } }).value);
    const prompt = data.filter((d) => d.kind === StreamDataKind.STREAM_DATA_KIND_PROMPT_TEXT);
    expect(prompt.every((d) => d.data.length <= 5)).toBe(true);
    expect(Buffer.concat(prompt.map((d) => d.data)).toString("utf8")).toBe(text);
    const last = chunks.at(-1)!.chunk;
    expect(last?.$case).toBe("finalResult");
    expect((last as { value: { promptTextSize: number } }).value.promptTextSize).toBe(Buffer.byteLength(text));

    await expect(call(client, "finalizeToolConfigRequest", FinalizeToolServerConfigRequest.fromPartial({ tools: [] }), auth())).rejects.toMatchObject({
      code: status.FAILED_PRECONDITION,
    });
  });

  it("rejects a stream chunk size over 4 MiB with INVALID_ARGUMENT", async () => {
    await expect(
      new Promise((resolve, reject) => {
        const stream = client.executeToolStream(
          ExecuteToolRequest.fromPartial({ toolName: "say", inputJson: '{"text":"a"}', options: { streamChunkSize: 4 * 1024 * 1024 + 1 } }),
          auth(),
        );
        stream.on("data", () => undefined);
        stream.on("error", reject);
        stream.on("end", resolve);
      }),
    ).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
  });
});

describe("standard gRPC services", () => {
  it("answers grpc.health.v1 Check with SERVING for the tools service", async () => {
    const { loadSync } = await import("@grpc/proto-loader");
    const { loadPackageDefinition } = await import("@grpc/grpc-js");
    const { protoPath } = (await import("grpc-health-check")) as unknown as { protoPath: string };
    const dir = mkdtempSync(path.join(tmpdir(), "grok-health-"));
    const server = createToolsServer({ workspace: dir, stateDir: path.join(dir, ".state"), builtinNamespaces: [testNamespace] });
    const address = await server.listen("127.0.0.1:0");
    try {
      const pkg = loadPackageDefinition(loadSync(protoPath, { enums: String })) as unknown as {
        grpc: {
          health: {
            v1: { Health: new (a: string, c: unknown) => { check(r: object, cb: (e: Error | null, r: { status: string }) => void): void; close(): void } };
          };
        };
      };
      const health = new pkg.grpc.health.v1.Health(address, credentials.createInsecure());
      const res = await new Promise<{ status: string }>((resolve, reject) =>
        health.check({ service: "xai.grok.tools.v1.GrokToolsService" }, (e, r) => (e ? reject(e) : resolve(r))),
      );
      health.close();
      expect(res.status).toBe("SERVING");
    } finally {
      await server.shutdown(500);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
