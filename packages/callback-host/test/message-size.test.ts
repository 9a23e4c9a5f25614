// The host takes what the tools server may send (issue 23.2): a FileWritten notification carries
// whole file contents, so a 5 MB file's notification is over gRPC's 4 MiB default.
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { credentials, Metadata, type ServiceError } from "@grpc/grpc-js";
import { GrokToolsCallbackServiceClient, type NotificationAck } from "@grok-tools/proto";
import { createCallbackHost, type CallbackHost, type ReceivedNotification } from "../src/index.js";

let host: CallbackHost;
let client: InstanceType<typeof GrokToolsCallbackServiceClient>;
const received: ReceivedNotification[] = [];

beforeAll(async () => {
  host = await createCallbackHost({ secret: "s", onNotification: (n) => void received.push(n) });
  client = new GrokToolsCallbackServiceClient(host.address, credentials.createInsecure());
});
afterAll(async () => {
  client.close();
  await host.close(100);
});

it("receives a 5 MB FileWritten notification", async () => {
  const content = "x".repeat(5 * 1024 * 1024);
  const metadata = new Metadata();
  metadata.set("authorization", "Bearer s");
  const notificationJson = JSON.stringify({ type: "FileWritten", tool_call_id: "c1", absolute_path: "/w/big", content, is_new_file: true });
  await new Promise<NotificationAck>((resolve, reject) =>
    client.sendNotification({ sessionId: "s1", sequence: 0, notificationJson }, metadata, (e: ServiceError | null, r: NotificationAck) =>
      e ? reject(e) : resolve(r),
    ),
  );
  expect(received).toHaveLength(1);
  expect((received[0]!.notification as { content: string }).content).toHaveLength(content.length);
});
