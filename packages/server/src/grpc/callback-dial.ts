/**
 * The host's GrokToolsCallbackService, dialed at finalize when `client_callback_addr` is set
 * (spec §7.5): notifications are forwarded fire-and-forget with a per-connection sequence and
 * `authorization: Bearer <client_callback_secret>`. A failed dial never fails the finalize.
 */
import { credentials, Metadata } from "@grpc/grpc-js";
import { GrokToolsCallbackServiceClient, MAX_MESSAGE_BYTES, type CallbackStatus } from "@grok-tools/proto";
import { type Logger, type ToolNotification } from "@grok-tools/runtime";

/** How long finalize waits for the host's callback endpoint. */
export const CALLBACK_DIAL_TIMEOUT_MS = 3000;

/** High-volume notifications the host does not need to see (spec §7.6 recommended set). */
const NOT_FORWARDED = new Set(["BashOutputChunk"]);

/** A connected callback: a notification sink and a way to close it. */
export interface CallbackConnection {
  status: CallbackStatus;
  send(sessionId: string, notification: ToolNotification): void;
  close(): void;
}

/** Dials `address` (`host:port`, optionally `http://host:port`, or `unix:/path`). */
export async function dialCallback(address: string, secret: string | undefined, log: Logger): Promise<CallbackConnection | { status: CallbackStatus }> {
  const target = address.replace(/^https?:\/\//, "");
  const client = new GrokToolsCallbackServiceClient(target, credentials.createInsecure(), {
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  });
  try {
    await new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + CALLBACK_DIAL_TIMEOUT_MS, (error) => (error ? reject(error) : resolve())));
  } catch (error) {
    client.close();
    log.warn({ err: error, address }, "callback dial failed; notifications stay local");
    return { status: { connected: false, activeSurfaces: [], message: `could not connect to ${address}: ${(error as Error).message}` } };
  }
  let sequence = 0;
  const metadata = new Metadata();
  if (secret) metadata.set("authorization", `Bearer ${secret}`);
  return {
    status: {
      connected: true,
      activeSurfaces: ["notifications"],
      message: "subagents are not available: this server has no GrokBuild:task tool",
    },
    send(sessionId, notification) {
      if (NOT_FORWARDED.has(notification.type)) return;
      const message = { sessionId, notificationJson: JSON.stringify(notification), sequence: sequence++ };
      // Fire and forget: a slow or failing host never blocks a tool.
      client.sendNotification(message, metadata, (error) => {
        if (error) log.debug({ err: error, type: notification.type }, "callback notification not delivered");
      });
    },
    close() {
      client.close();
    },
  };
}
