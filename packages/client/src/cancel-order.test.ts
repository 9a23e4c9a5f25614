// A cancel reaches the server ahead of the calls its caller makes after it, including a cancel asked
// for in the continuation of another call's answer, where Node's HTTP/2 session holds the frame back
// (see cancel-call.ts). Before the fix, the next call overtook the cancel in every round here. And as
// when the cancel was sent at once, nothing that arrives after the abort reaches the caller.
import { afterEach, describe, expect, it } from "@jest/globals";
import type { ServerUnaryCall, ServerWritableStream, sendUnaryData } from "@grpc/grpc-js";
import { StreamDataKind, type ExecuteToolRequest, type ExecuteToolResponse, type ToolStreamChunk } from "@grok-tools/proto";
import { startFakeServer, type FakeServer } from "../test/fake-server.js";
import { waitFor } from "../test/wait-for.js";
import { createToolsClient, type ToolsClient } from "./client.js";

const ROUNDS = 20;

let server: FakeServer | undefined;
let client: ToolsClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const answer: ExecuteToolResponse = {
  callId: "c",
  result: { $case: "success", value: { outputJson: "{}", promptText: "ok" } },
  metadata: undefined,
};

const firstChunk: ToolStreamChunk = {
  callId: "c",
  chunk: { $case: "data", value: { kind: StreamDataKind.STREAM_DATA_KIND_PROMPT_TEXT, offset: 0, data: Buffer.from("a") } },
};

/**
 * A server that records, in order, what it hears: a `hold` call (never answered) arriving and
 * cancelled, and any other tool's call arriving (answered at once). `streamed` sends one chunk and holds.
 */
async function recordingServer(): Promise<{ events: string[] }> {
  const events: string[] = [];
  const hold = (name: string, call: { on(event: "cancelled", listener: () => void): unknown }) => {
    events.push(`${name} arrived`);
    call.on("cancelled", () => events.push(`${name} cancelled`));
  };
  server = await startFakeServer({
    executeTool: (call: ServerUnaryCall<ExecuteToolRequest, ExecuteToolResponse>, callback: sendUnaryData<ExecuteToolResponse>) => {
      const name = call.request.toolName;
      if (name === "hold") return hold(name, call);
      events.push(`${name} arrived`);
      callback(null, answer);
    },
    executeToolStream: (call: ServerWritableStream<ExecuteToolRequest, ToolStreamChunk>) => {
      hold(call.request.toolName, call);
      call.write(firstChunk);
    },
  });
  client = createToolsClient({ address: server.address });
  return { events };
}

describe("what the caller sees after its abort", () => {
  it("executeToolStream: no progress or output after the abort, and the call rejects CANCELLED even when the rest came first", async () => {
    // Every chunk and the final result are sent at once, so they are on their way before the cancel.
    const texts = Array.from({ length: 50 }, (_, i) => `line ${i}\n`);
    server = await startFakeServer({
      executeToolStream: (call: ServerWritableStream<ExecuteToolRequest, ToolStreamChunk>) => {
        let offset = 0;
        for (const text of texts) {
          call.write({ callId: "c", chunk: { $case: "data", value: { kind: StreamDataKind.STREAM_DATA_KIND_UNSPECIFIED, offset, data: Buffer.from(text) } } });
          offset += text.length;
        }
        call.write({
          callId: "c",
          chunk: { $case: "finalResult", value: { promptTextSize: 0, outputJsonSize: 0, metadata: undefined } },
        });
        call.end();
      },
    });
    client = createToolsClient({ address: server.address });
    for (let round = 0; round < ROUNDS; round++) {
      const controller = new AbortController();
      const seen: string[] = [];
      const outcome = await client
        .executeToolStream(
          "t",
          {},
          {
            signal: controller.signal,
            onOutput: (bytes) => {
              seen.push(Buffer.from(bytes).toString());
              controller.abort();
            },
          },
        )
        .catch((error: unknown) => error);
      expect(seen).toEqual([texts[0]]);
      expect(outcome).toMatchObject({ name: "ToolsRpcError", codeName: "CANCELLED" });
    }
  });

  it("executeTool: an answer that arrives between the abort and the cancel is not taken, the call rejects CANCELLED", async () => {
    // `hold` is answered together with `trigger`, in the same turn: its answer is on its way as the caller aborts it.
    let answerHeld: (() => void) | undefined;
    server = await startFakeServer({
      executeTool: (call: ServerUnaryCall<ExecuteToolRequest, ExecuteToolResponse>, callback: sendUnaryData<ExecuteToolResponse>) => {
        if (call.request.toolName === "hold") {
          answerHeld = () => callback(null, answer);
          return;
        }
        callback(null, answer);
        answerHeld?.();
      },
    });
    client = createToolsClient({ address: server.address });
    for (let round = 0; round < ROUNDS; round++) {
      answerHeld = undefined;
      const controller = new AbortController();
      const held = client.executeTool("hold", {}, { signal: controller.signal }).catch((error: unknown) => error);
      await waitFor(() => answerHeld !== undefined);
      await client.executeTool("trigger", {});
      controller.abort();
      expect(await held).toMatchObject({ name: "ToolsRpcError", codeName: "CANCELLED" });
    }
  });
});

describe("a cancelled call and the caller's next call", () => {
  it("executeTool: aborted right after another call's answer, cancelled on the server before the next call arrives", async () => {
    const { events } = await recordingServer();
    for (let round = 0; round < ROUNDS; round++) {
      events.length = 0;
      const controller = new AbortController();
      const held = client!.executeTool("hold", {}, { signal: controller.signal }).catch((error: unknown) => error);
      await waitFor(() => events.includes("hold arrived"));
      await client!.executeTool("quick", {});
      // Here, in the continuation of `quick`'s answer, Node's HTTP/2 session is still handling what it received.
      controller.abort();
      expect(await held).toMatchObject({ name: "ToolsRpcError", codeName: "CANCELLED" });
      await client!.executeTool("next", {});
      await waitFor(() => events.includes("hold cancelled"));
      expect(events).toEqual(["hold arrived", "quick arrived", "hold cancelled", "next arrived"]);
    }
  });

  it("executeToolStream: aborted from a progress callback, cancelled on the server before the next call arrives", async () => {
    const { events } = await recordingServer();
    for (let round = 0; round < ROUNDS; round++) {
      events.length = 0;
      const controller = new AbortController();
      const streamed = client!.executeToolStream("streamed", {}, { signal: controller.signal, onProgress: () => controller.abort() });
      expect(await streamed.catch((error: unknown) => error)).toMatchObject({ name: "ToolsRpcError", codeName: "CANCELLED" });
      await client!.executeTool("next", {});
      await waitFor(() => events.includes("streamed cancelled"));
      expect(events).toEqual(["streamed arrived", "streamed cancelled", "next arrived"]);
    }
  });

  it("rawExecuteToolStream: left by a break, cancelled on the server before the next call arrives", async () => {
    const { events } = await recordingServer();
    for (let round = 0; round < ROUNDS; round++) {
      events.length = 0;
      for await (const chunk of client!.rawExecuteToolStream({ toolName: "streamed" })) {
        expect(chunk.chunk?.$case).toBe("data");
        break;
      }
      await client!.executeTool("next", {});
      await waitFor(() => events.includes("streamed cancelled"));
      expect(events).toEqual(["streamed arrived", "streamed cancelled", "next arrived"]);
    }
  });
});
