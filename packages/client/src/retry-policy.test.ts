import { afterEach, describe, expect, it } from "@jest/globals";
import { status as GrpcStatus, Metadata, type ServiceError } from "@grpc/grpc-js";
import { ToolInfo, type ExecuteToolResponse } from "@grok-tools/proto";
import { startFakeServer, type FakeServer } from "../test/fake-server.js";
import { createToolsClient, type ToolsClient } from "./client.js";
import { backoffMs, DEFAULT_RETRY_POLICY } from "./retry-policy.js";

let server: FakeServer | undefined;
let client: ToolsClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const success: ExecuteToolResponse = {
  callId: "c",
  result: { $case: "success", value: { outputJson: "{}", promptText: "" } },
  metadata: { durationMs: 1, estimatedTokens: 0, truncated: false, toolVersion: "1", contractVersion: "" },
};

/** A server whose ExecuteTool fails `failures` times with `code`, then succeeds. */
async function flaky(failures: number, code: GrpcStatus) {
  let left = failures;
  client?.close();
  await server?.close();
  server = await startFakeServer({
    executeTool: (_call, callback) => {
      if (left-- > 0) callback(Object.assign(new Error("x"), { code, details: "flaky", metadata: new Metadata() }) as ServiceError);
      else callback(null, success);
    },
    listTools: (_call, callback) =>
      callback(null, {
        tools: [
          ToolInfo.fromPartial({ name: "read_file", capabilities: { hasSideEffects: false } }),
          ToolInfo.fromPartial({ name: "edit", capabilities: { hasSideEffects: true } }),
        ],
        totalCount: 2,
        enabledCount: 2,
      }),
  });
  client = createToolsClient({ address: server.address, sessionId: "s-1", retry: { initialBackoffMs: 1, maxBackoffMs: 5 } });
  return { server, client };
}

const executeCalls = () => server!.calls.filter((c) => c.rpc === "ExecuteTool");

describe("executeTool retries", () => {
  it("retries UNAVAILABLE and DEADLINE_EXCEEDED for a call with a call id, reusing it", async () => {
    const { client } = await flaky(2, GrpcStatus.UNAVAILABLE);
    expect(await client.executeTool("edit", {}, { callId: "k1" })).toEqual(expect.objectContaining({ ok: true }));
    expect(executeCalls().map((c) => (c.request as { callId?: string }).callId)).toEqual(["k1", "k1", "k1"]);
    expect(executeCalls()[0]!.metadata.get("x-grok-session-id")).toEqual(["s-1"]);
  });

  it("does not retry a call without a call id to a tool with side effects, nor other statuses", async () => {
    const { client } = await flaky(1, GrpcStatus.UNAVAILABLE);
    await expect(client.executeTool("edit", {})).rejects.toMatchObject({ code: GrpcStatus.UNAVAILABLE });
    expect(executeCalls()).toHaveLength(1);
    const second = await flaky(1, GrpcStatus.INTERNAL);
    await expect(second.client.executeTool("edit", {}, { callId: "k" })).rejects.toMatchObject({ code: GrpcStatus.INTERNAL });
    expect(executeCalls()).toHaveLength(1);
  });

  it("retries a read-only tool (as ListTools described it) without a call id; gives up after maxAttempts", async () => {
    const { client } = await flaky(2, GrpcStatus.DEADLINE_EXCEEDED);
    await client.listTools();
    expect((await client.executeTool("read_file", {})).ok).toBe(true);
    expect(executeCalls()).toHaveLength(3);
    const second = await flaky(10, GrpcStatus.UNAVAILABLE);
    await expect(second.client.executeTool("edit", {}, { callId: "k" })).rejects.toMatchObject({ code: GrpcStatus.UNAVAILABLE });
    expect(executeCalls()).toHaveLength(DEFAULT_RETRY_POLICY.maxAttempts);
  });

  it("backs off exponentially with full jitter, capped", () => {
    const policy = { ...DEFAULT_RETRY_POLICY };
    expect([1, 2, 3, 4, 10].map((n) => backoffMs(policy, n, () => 1))).toEqual([100, 200, 400, 800, 2000]);
    expect(backoffMs(policy, 3, () => 0)).toBe(0);
  });
});
