// The host as the server uses it: one channel, a subagent call that lasts the whole child run,
// and notifications arriving meanwhile, which must not wait for the child.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { credentials, Metadata, type ServiceError } from "@grpc/grpc-js";
import { GrokToolsCallbackServiceClient, SpawnSubagentRequest, type NotificationAck, type SubagentResultMsg } from "@grok-tools/proto";
import { createCallbackHost, type CallbackHost, type ReceivedNotification } from "../src/index.js";

const SECRET = "s";
const NOTIFICATIONS = 50;
let host: CallbackHost;
let client: InstanceType<typeof GrokToolsCallbackServiceClient>;
const received: ReceivedNotification[] = [];
let finishChild!: () => void;
const childMayFinish = new Promise<void>((resolve) => (finishChild = resolve));

beforeAll(async () => {
  host = await createCallbackHost({
    secret: SECRET,
    onNotification: (n) => void received.push(n),
    spawnSubagent: async (req) => {
      await childMayFinish;
      return { success: true, output: `done ${req.id}`, turns: 1 };
    },
  });
  client = new GrokToolsCallbackServiceClient(host.address, credentials.createInsecure());
});
afterAll(async () => {
  client.close();
  await host.close(100);
});

const auth = () => {
  const metadata = new Metadata();
  metadata.set("authorization", `Bearer ${SECRET}`);
  return metadata;
};

describe("a callback host under concurrent calls", () => {
  it("delivers every notification while a subagent call is still running", async () => {
    const child = new Promise<SubagentResultMsg>((resolve, reject) =>
      client.spawnSubagent(SpawnSubagentRequest.fromPartial({ id: "child-1", prompt: "p" }), auth(), (e: ServiceError | null, r: SubagentResultMsg) =>
        e ? reject(e) : resolve(r),
      ),
    );
    const acks = Array.from(
      { length: NOTIFICATIONS },
      (_, sequence) =>
        new Promise<NotificationAck>((resolve, reject) =>
          client.sendNotification(
            { sessionId: "s1", sequence, notificationJson: JSON.stringify({ type: "TaskCompleted", n: sequence }) },
            auth(),
            (e: ServiceError | null, r: NotificationAck) => (e ? reject(e) : resolve(r)),
          ),
        ),
    );
    await Promise.all(acks);
    expect(received.map((n) => n.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: NOTIFICATIONS }, (_, i) => i));
    finishChild();
    await expect(child).resolves.toMatchObject({ success: true, output: "done child-1", turns: 1 });
  });
});
