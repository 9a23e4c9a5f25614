// The host callback of spec §7.5: dialed at finalize when client_callback_addr is set, with the
// per-session bearer secret; tool notifications are forwarded in order; a failed dial does not
// fail the finalize.
import { afterEach, describe, expect, it } from "@jest/globals";
import { credentials, Server, ServerCredentials, type ServiceError } from "@grpc/grpc-js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  ExecuteToolRequest,
  FinalizeToolServerConfigRequest,
  GrokToolsCallbackServiceService,
  GrokToolsServiceClient,
  type FinalizeToolServerConfigResponse,
  type ToolNotificationMsg,
} from "@grok-tools/proto";
import { createToolsServer } from "@grok-tools/server";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startHost(): Promise<{ address: string; received: { msg: ToolNotificationMsg; auth: unknown }[] }> {
  const received: { msg: ToolNotificationMsg; auth: unknown }[] = [];
  const host = new Server();
  host.addService(GrokToolsCallbackServiceService, {
    sendNotification: (call: { request: ToolNotificationMsg; metadata: { get(k: string): unknown[] } }, cb: (e: null, r: object) => void) => {
      received.push({ msg: call.request, auth: call.metadata.get("authorization")[0] });
      cb(null, {});
    },
    spawnSubagent: (_call: unknown, cb: (e: Error) => void) => cb(new Error("not used")),
  });
  const port = await new Promise<number>((resolve, reject) =>
    host.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  cleanups.push(() => void host.forceShutdown());
  return { address: `127.0.0.1:${port}`, received };
}

async function finalizeWith(callbackAddr: string): Promise<{ client: GrokToolsServiceClient; response: FinalizeToolServerConfigResponse }> {
  const dir = mkdtempSync(path.join(tmpdir(), "grok-callback-"));
  const server = createToolsServer({ workspace: dir, stateDir: path.join(dir, ".state") });
  const client = new GrokToolsServiceClient(await server.listen("127.0.0.1:0"), credentials.createInsecure());
  cleanups.push(async () => {
    client.close();
    await server.shutdown(500);
    rmSync(dir, { recursive: true, force: true });
  });
  const response = await new Promise<FinalizeToolServerConfigResponse>((resolve, reject) =>
    client.finalizeToolConfigRequest(
      FinalizeToolServerConfigRequest.fromPartial({
        tools: [{ id: "GrokBuild:enter_plan_mode" }, { id: "GrokBuild:exit_plan_mode" }],
        clientCallbackAddr: callbackAddr,
        clientCallbackSecret: "cb-secret",
        sessionId: "session-7",
      }),
      (e: ServiceError | null, r) => (e ? reject(e) : resolve(r)),
    ),
  );
  return { client, response };
}

describe("the host callback", () => {
  it("forwards tool notifications with the session id, a sequence and the bearer secret", async () => {
    const host = await startHost();
    const { client, response } = await finalizeWith(`http://${host.address}`);
    expect(response.success).toBe(true);
    expect(response.callbackStatus).toMatchObject({ connected: true, activeSurfaces: ["notifications"] });
    for (const tool of ["enter_plan_mode", "exit_plan_mode"]) {
      await new Promise((resolve, reject) =>
        client.executeTool(ExecuteToolRequest.fromPartial({ toolName: tool, inputJson: "{}", callId: `call-${tool}` }), (e: ServiceError | null, r) =>
          e ? reject(e) : resolve(r),
        ),
      );
    }
    const until = Date.now() + 5000;
    while (host.received.length < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.received.map((r) => [r.msg.sessionId, r.msg.sequence, (JSON.parse(r.msg.notificationJson) as { type: string }).type, r.auth])).toEqual([
      ["session-7", 0, "PlanModeEntered", "Bearer cb-secret"],
      ["session-7", 1, "PlanModeExited", "Bearer cb-secret"],
    ]);
  });

  it("still finalizes when the host cannot be reached", async () => {
    const { response } = await finalizeWith("127.0.0.1:1");
    expect(response.success).toBe(true);
    expect(response.callbackStatus).toMatchObject({ connected: false, activeSurfaces: [] });
    expect(response.callbackStatus?.message).toMatch(/^could not connect to 127\.0\.0\.1:1/);
  });
});
