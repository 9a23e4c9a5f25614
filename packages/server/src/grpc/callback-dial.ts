/**
 * The host's GrokToolsCallbackService, dialed at finalize when `client_callback_addr` is set
 * (spec §7.5). Every call carries `authorization: Bearer <client_callback_secret>`.
 * Notifications go out one at a time, in order, from a bounded queue (the oldest are dropped
 * when a slow or dead host lets it fill), so no tool ever waits for the host. SpawnSubagent
 * spans a child's run; aborting its signal cancels the RPC. A failed dial never fails finalize.
 * `https://` addresses are dialed with TLS (the system roots), so the bearer secret is never sent
 * in clear to them; bare `host:port`, `http://` and `unix:` addresses are plaintext.
 */
import { credentials, Metadata, status as GrpcStatus, type ChannelCredentials, type ServiceError } from "@grpc/grpc-js";
import { GrokToolsCallbackServiceClient, MAX_MESSAGE_BYTES, SpawnSubagentRequest, type CallbackStatus, type ToolNotificationMsg } from "@grok-tools/proto";
import { type Logger, type SubagentHost, type ToolNotification } from "@grok-tools/runtime";
import type { SubagentRunResult, SubagentSpawnRequest } from "@grok-tools/runtime/helpers";

/** How long finalize waits for the host's callback endpoint. */
export const CALLBACK_DIAL_TIMEOUT_MS = 3000;
/** Notifications waiting for delivery; beyond this the oldest are dropped (sequence gaps show it). */
export const MAX_PENDING_NOTIFICATIONS = 1024;
/** Deadline of one SendNotification, so that a host that never answers cannot stall the queue. */
export const NOTIFICATION_DEADLINE_MS = 5000;

/** High-volume notifications the host does not need to see (spec §7.6 recommended set). */
const NOT_FORWARDED = new Set(["BashOutputChunk"]);

/** A connected callback: a notification sink, a subagent host and a way to close it. */
export interface CallbackConnection {
  status: CallbackStatus;
  send(sessionId: string, notification: ToolNotification): void;
  /** Runs children through SpawnSubagent. */
  subagents: SubagentHost;
  /** Notifications dropped because the queue was full. */
  readonly droppedNotifications: number;
  close(): void;
}

/** What the dial reports in `callback_status`. */
export interface DialOptions {
  /** Whether the finalized toolset has a task tool (the `subagents` surface). */
  subagentsEnabled: boolean;
}

/** Where and how to dial a `client_callback_addr`. */
export interface CallbackTarget {
  /** The gRPC target (the address without its scheme). */
  target: string;
  /** TLS for `https://`, else plaintext. */
  tls: boolean;
  credentials: ChannelCredentials;
}

/**
 * The target of a callback address: `https://host:port` is TLS, verified against the system roots
 * (grpc-js's default roots; `GRPC_DEFAULT_SSL_ROOTS_FILE_PATH` replaces them); bare `host:port`,
 * `http://host:port` and `unix:/path` are plaintext.
 */
export function callbackTarget(address: string): CallbackTarget {
  const tls = /^https:\/\//i.test(address);
  const target = address.replace(/^https?:\/\//i, "").replace(/\/$/, "");
  return { target, tls, credentials: tls ? credentials.createSsl() : credentials.createInsecure() };
}

/** Dials `address` (`host:port`, `http://host:port`, `https://host:port` for TLS, or `unix:/path`). */
export async function dialCallback(
  address: string,
  secret: string | undefined,
  log: Logger,
  options: DialOptions = { subagentsEnabled: false },
): Promise<CallbackConnection | { status: CallbackStatus }> {
  const { target, credentials: channelCredentials } = callbackTarget(address);
  const client = new GrokToolsCallbackServiceClient(target, channelCredentials, {
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
  const metadata = new Metadata();
  if (secret) metadata.set("authorization", `Bearer ${secret}`);

  let sequence = 0;
  let dropped = 0;
  let sending = false;
  let closed = false;
  const queue: ToolNotificationMsg[] = [];
  const pump = (): void => {
    if (sending || closed) return;
    const message = queue.shift();
    if (!message) return;
    sending = true;
    client.sendNotification(message, metadata, { deadline: Date.now() + NOTIFICATION_DEADLINE_MS }, (error: ServiceError | null) => {
      sending = false;
      if (error) log.debug({ err: error, sequence: message.sequence }, "callback notification not delivered");
      pump();
    });
  };

  const subagents: SubagentHost = {
    spawn: (request, signal) => spawnSubagent(client, metadata, request, signal),
  };

  return {
    status: {
      connected: true,
      activeSurfaces: options.subagentsEnabled ? ["notifications", "subagents"] : ["notifications"],
      ...(options.subagentsEnabled ? {} : { message: "subagents are not available: the finalized toolset has no GrokBuild:task tool" }),
    },
    send(sessionId, notification) {
      if (closed || NOT_FORWARDED.has(notification.type)) return;
      if (queue.length >= MAX_PENDING_NOTIFICATIONS) {
        queue.shift();
        dropped++;
        if (dropped === 1 || dropped % 100 === 0) log.warn({ dropped }, "callback host is not keeping up; oldest notifications dropped");
      }
      queue.push({ sessionId, notificationJson: JSON.stringify(notification), sequence: sequence++ });
      pump();
    },
    subagents,
    get droppedNotifications() {
      return dropped;
    },
    close() {
      closed = true;
      queue.length = 0;
      client.close();
    },
  };
}

/** One SpawnSubagent call for the whole child run; the signal cancels it. */
function spawnSubagent(
  client: InstanceType<typeof GrokToolsCallbackServiceClient>,
  metadata: Metadata,
  request: SubagentSpawnRequest,
  signal: AbortSignal,
): Promise<SubagentRunResult> {
  return new Promise((resolve, reject) => {
    const message = SpawnSubagentRequest.fromPartial({
      id: request.id,
      prompt: request.prompt,
      description: request.description,
      subagentType: request.subagentType,
      parentSessionId: request.parentSessionId,
      ...(request.parentPromptId !== undefined ? { parentPromptId: request.parentPromptId } : {}),
      ...(request.resumeFrom !== undefined ? { resumeFrom: request.resumeFrom } : {}),
      ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
      systemPrompt: request.systemPrompt,
      toolNames: request.toolNames,
      ...(request.initialUserMessage !== undefined ? { initialUserMessage: request.initialUserMessage } : {}),
    });
    const onAbort = () => call.cancel();
    const call = client.spawnSubagent(message, metadata, (error, result) => {
      signal.removeEventListener("abort", onAbort);
      if (error) {
        if (error.code === GrpcStatus.CANCELLED && signal.aborted) {
          resolve({ success: false, output: "", cancelled: true, toolCalls: 0, turns: 0, durationMs: 0, tokensUsed: 0 });
          return;
        }
        reject(new Error(`the host's SpawnSubagent failed: ${error.details || error.message}`));
        return;
      }
      // Identity, workspace and delivery state are the server's: the deprecated fields are ignored.
      resolve({
        success: result.success,
        output: result.output,
        ...(result.error !== undefined ? { error: result.error } : {}),
        cancelled: result.cancelled,
        toolCalls: result.toolCalls,
        turns: result.turns,
        durationMs: result.durationMs,
        tokensUsed: result.tokensUsed,
        ...(result.outputTokensUsed !== undefined ? { outputTokensUsed: result.outputTokensUsed } : {}),
        ...(result.totalTokensUsed !== undefined ? { totalTokensUsed: result.totalTokensUsed } : {}),
      });
    });
    if (signal.aborted) call.cancel();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
}
