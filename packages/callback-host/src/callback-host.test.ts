import { afterEach, describe, expect, it } from "@jest/globals";
import { credentials, Metadata, status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";
import {
  GrokToolsCallbackServiceClient,
  type NotificationAck,
  type SubagentResultMsg,
  type ToolNotificationMsg,
  type SpawnSubagentRequest,
  SpawnSubagentRequest as SpawnSubagentRequestFns,
} from "@grok-tools/proto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createCallbackHost, type CallbackHost, type CallbackHostOptions, type ReceivedNotification } from "./callback-host.js";

const SECRET = "per-session-secret";
let host: CallbackHost | undefined;
let client: InstanceType<typeof GrokToolsCallbackServiceClient> | undefined;
afterEach(async () => {
  client?.close();
  await host?.close(100);
  host = undefined;
  client = undefined;
});

async function start(options: Partial<CallbackHostOptions> = {}) {
  host = await createCallbackHost({ secret: SECRET, ...options });
  client = new GrokToolsCallbackServiceClient(host.address, credentials.createInsecure());
  return { host, client };
}

function auth(value: string | null = `Bearer ${SECRET}`): Metadata {
  const metadata = new Metadata();
  if (value !== null) metadata.set("authorization", value);
  return metadata;
}

function notify(c: InstanceType<typeof GrokToolsCallbackServiceClient>, msg: ToolNotificationMsg, metadata: Metadata) {
  return new Promise<NotificationAck>((resolve, reject) =>
    c.sendNotification(msg, metadata, (e: ServiceError | null, r: NotificationAck) => (e ? reject(e) : resolve(r))),
  );
}

function spawnCall(c: InstanceType<typeof GrokToolsCallbackServiceClient>, req: Partial<SpawnSubagentRequest>, metadata: Metadata = auth()) {
  let call: { cancel(): void } | undefined;
  const promise = new Promise<SubagentResultMsg>((resolve, reject) => {
    call = c.spawnSubagent(SpawnSubagentRequestFns.fromPartial(req), metadata, (e: ServiceError | null, r: SubagentResultMsg) => (e ? reject(e) : resolve(r)));
  });
  return { promise, cancel: () => call!.cancel() };
}

const NOTE: ToolNotificationMsg = { sessionId: "s1", sequence: 4, notificationJson: '{"type":"SubagentCompleted","subagent_id":"a1","status":"completed"}' };

describe("createCallbackHost", () => {
  it("delivers notifications with the JSON parsed, and reports a bound address with the real port", async () => {
    const received: ReceivedNotification[] = [];
    const { host, client } = await start({ onNotification: (n) => void received.push(n) });
    expect(host.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(host.address).not.toBe("127.0.0.1:0");
    await expect(notify(client, NOTE, auth())).resolves.toEqual({});
    expect(received).toEqual([
      {
        sessionId: "s1",
        sequence: 4,
        notification: { type: "SubagentCompleted", subagent_id: "a1", status: "completed" },
        notificationJson: NOTE.notificationJson,
      },
    ]);
  });

  it.each([
    ["no authorization", null],
    ["a wrong secret", "Bearer nope"],
    ["an off-by-one secret", `Bearer ${SECRET}x`],
    ["a lower-case scheme", `bearer ${SECRET}`],
    ["the secret without the scheme", SECRET],
  ])("refuses %s with UNAUTHENTICATED and never calls the handler", async (_name, value) => {
    let called = false;
    const { client } = await start({ onNotification: () => void (called = true) });
    await expect(notify(client, NOTE, auth(value))).rejects.toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
    expect(called).toBe(false);
  });

  it("answers INVALID_ARGUMENT for notification_json that is not JSON, INTERNAL when the handler throws", async () => {
    const { client } = await start({
      onNotification: () => {
        throw new Error("disk full");
      },
    });
    await expect(notify(client, { ...NOTE, notificationJson: "{" }, auth())).rejects.toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
    await expect(notify(client, NOTE, auth())).rejects.toMatchObject({ code: GrpcStatus.INTERNAL, details: "callback handler failed: disk full" });
  });

  it("runs a subagent and returns its result with proto defaults filled in", async () => {
    const { client } = await start({
      spawnSubagent: async (req) => ({ success: true, output: `did: ${req.prompt} in ${req.cwd}`, toolCalls: 3, turns: 2, durationMs: 40 }),
    });
    const result = await spawnCall(client, { id: "c1", prompt: "explore", subagentType: "explore", cwd: "/ws", toolNames: ["read_file"] }).promise;
    expect(result).toMatchObject({ success: true, output: "did: explore in /ws", toolCalls: 3, turns: 2, durationMs: 40, cancelled: false, error: undefined });
  });

  it("turns a failing subagent into success=false with the error", async () => {
    const { client } = await start({
      spawnSubagent: async () => {
        throw new Error("model unavailable");
      },
    });
    await expect(spawnCall(client, { id: "c1" }).promise).resolves.toMatchObject({ success: false, error: "model unavailable", cancelled: false });
  });

  it("aborts the subagent's signal when the server cancels the call", async () => {
    let aborted!: () => void;
    const abortedSeen = new Promise<void>((resolve) => (aborted = resolve));
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    const { client } = await start({
      spawnSubagent: (_req, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            aborted();
            resolve({ success: false, cancelled: true });
          });
          started();
        }),
    });
    const call = spawnCall(client, { id: "c1" });
    // Cancelled once the host runs the handler: a cancel before the call reaches the host (a fixed
    // delay on a loaded machine) never starts the handler, so there would be nothing to abort.
    await handlerStarted;
    call.cancel();
    await expect(call.promise).rejects.toMatchObject({ code: GrpcStatus.CANCELLED });
    await abortedSeen;
  });

  it("answers UNIMPLEMENTED for SpawnSubagent without a handler, and checks the secret first", async () => {
    const { client } = await start();
    await expect(spawnCall(client, { id: "c1" }).promise).rejects.toMatchObject({ code: GrpcStatus.UNIMPLEMENTED });
    await expect(spawnCall(client, { id: "c1" }, auth("Bearer wrong")).promise).rejects.toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
  });

  it("listens on a unix socket", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "gtcb-"));
    try {
      const received: ReceivedNotification[] = [];
      const { host, client } = await start({ listen: `unix:${path.join(dir, "cb.sock")}`, onNotification: (n) => void received.push(n) });
      expect(host.address).toBe(`unix:${path.join(dir, "cb.sock")}`);
      await notify(client, NOTE, auth());
      expect(received).toHaveLength(1);
    } finally {
      client?.close();
      await host?.close(100);
      host = undefined;
      client = undefined;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses an empty secret", async () => {
    await expect(createCallbackHost({ secret: "" })).rejects.toThrow("The callback secret must not be empty.");
  });
});
