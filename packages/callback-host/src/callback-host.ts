// A reference host for GrokToolsCallbackService: the server dials it during finalize to push
// notifications and to run subagents. It checks the bearer secret; what to do is up to the handlers.
import { Server, ServerCredentials, status as GrpcStatus, Metadata, type sendUnaryData, type ServerUnaryCall, type ServiceError } from "@grpc/grpc-js";
import {
  GrokToolsCallbackServiceService,
  MAX_MESSAGE_BYTES,
  SubagentResultMsg,
  type DeepPartial,
  type GrokToolsCallbackServiceServer,
  type NotificationAck,
  type SpawnSubagentRequest,
  type ToolNotificationMsg,
} from "@grok-tools/proto";
import { bearerChecker } from "./bearer.js";
import { parseNotification, type HostNotification } from "./notifications.js";

/** Where the host listens when `listen` is omitted: loopback, a free port. */
export const DEFAULT_CALLBACK_LISTEN = "127.0.0.1:0";
/** How long close() lets calls in flight finish before cancelling them. */
export const DEFAULT_CLOSE_GRACE_MS = 2_000;

/** One notification pushed by the server. */
export interface ReceivedNotification {
  sessionId: string;
  /** Monotonic per connection; gaps mean lost notifications. */
  sequence: number;
  /** The notification, tagged by `"type"` (narrow on it: `SubagentCompleted`, `TaskCompleted`, ...). */
  notification: HostNotification;
  /** notification_json as received. */
  notificationJson: string;
}

/** Context of one SpawnSubagent call. */
export interface SpawnSubagentContext {
  /** Aborted when the server cancels the call (the child must stop). */
  signal: AbortSignal;
  metadata: Metadata;
}

/** Runs one child to completion; `context.signal` aborts when the server cancels the call. */
export type SpawnSubagentHandler = (request: SpawnSubagentRequest, context: SpawnSubagentContext) => Promise<DeepPartial<SubagentResultMsg>>;

/** Options of createCallbackHost. */
export interface CallbackHostOptions {
  /** `host:port` (port 0 = a free port) or `unix:/path`; default 127.0.0.1:0. */
  listen?: string;
  /** Per-session secret; calls must carry `authorization: Bearer <secret>`. */
  secret: string;
  /** Receives each notification; a throw answers INTERNAL (the server ignores it). */
  onNotification?: (notification: ReceivedNotification) => void | Promise<void>;
  /**
   * Runs one child request to completion (a runner: `scriptedRunner`, `commandRunner` or your own).
   * A throw becomes `{ success: false, error: message }`. Without it, SpawnSubagent answers UNIMPLEMENTED.
   */
  onSpawnSubagent?: SpawnSubagentHandler;
  /** @deprecated The former name of {@link onSpawnSubagent}. */
  spawnSubagent?: SpawnSubagentHandler;
  /** Server credentials (default: plaintext, meant for loopback and unix sockets). */
  credentials?: ServerCredentials;
}

/** A running callback host. */
export interface CallbackHost {
  /** The bound address to pass as `client_callback_addr` (`127.0.0.1:PORT` or `unix:/path`). */
  address: string;
  /** Stops accepting calls, waits up to `graceMs` for calls in flight, then cancels them. */
  close(graceMs?: number): Promise<void>;
}

function statusError(code: GrpcStatus, details: string): ServiceError {
  return Object.assign(new Error(details), { code, details, metadata: new Metadata() });
}

function boundAddress(listen: string, port: number): string {
  if (listen.startsWith("unix:")) return listen;
  return `${listen.slice(0, listen.lastIndexOf(":"))}:${port}`;
}

/** Starts a callback host and resolves once it is bound. */
export async function createCallbackHost(options: CallbackHostOptions): Promise<CallbackHost> {
  const authorized = bearerChecker(options.secret);
  const listen = options.listen ?? DEFAULT_CALLBACK_LISTEN;

  const guard =
    <Req, Res>(handler: (call: ServerUnaryCall<Req, Res>) => Promise<Res>) =>
    (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void => {
      if (!authorized(call.metadata)) {
        callback(statusError(GrpcStatus.UNAUTHENTICATED, "missing or wrong authorization: expected Bearer <client_callback_secret>"));
        return;
      }
      handler(call).then(
        (response) => callback(null, response),
        (error: unknown) => callback(isStatus(error) ? error : statusError(GrpcStatus.INTERNAL, `callback handler failed: ${messageOf(error)}`)),
      );
    };

  const service: GrokToolsCallbackServiceServer = {
    sendNotification: guard<ToolNotificationMsg, NotificationAck>(async (call) => {
      const { sessionId, notificationJson, sequence } = call.request;
      let notification: HostNotification;
      try {
        notification = parseNotification(notificationJson);
      } catch (error) {
        throw statusError(GrpcStatus.INVALID_ARGUMENT, `notification_json is not JSON: ${messageOf(error)}`);
      }
      await options.onNotification?.({ sessionId, sequence, notification, notificationJson });
      return {};
    }),
    spawnSubagent: guard<SpawnSubagentRequest, SubagentResultMsg>(async (call) => {
      const run = options.onSpawnSubagent ?? options.spawnSubagent;
      if (!run) throw statusError(GrpcStatus.UNIMPLEMENTED, "this host does not run subagents");
      const controller = new AbortController();
      call.once("cancelled", () => controller.abort(new Error("SpawnSubagent was cancelled by the server")));
      try {
        const result = SubagentResultMsg.fromPartial(await run(call.request, { signal: controller.signal, metadata: call.metadata }));
        return controller.signal.aborted ? { ...result, success: false, cancelled: true } : result;
      } catch (error) {
        return SubagentResultMsg.fromPartial({ success: false, error: messageOf(error), cancelled: controller.signal.aborted });
      }
    }),
  };

  // The tools server's limit, not gRPC's 4 MiB: a FileWritten notification carries whole file contents.
  const server = new Server({ "grpc.max_receive_message_length": MAX_MESSAGE_BYTES, "grpc.max_send_message_length": MAX_MESSAGE_BYTES });
  server.addService(GrokToolsCallbackServiceService, service);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(listen, options.credentials ?? ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    address: boundAddress(listen, port),
    close: (graceMs = DEFAULT_CLOSE_GRACE_MS) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.forceShutdown(), graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

function isStatus(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === "number";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
