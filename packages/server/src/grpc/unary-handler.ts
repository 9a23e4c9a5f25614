/**
 * The one wrapper every unary RPC goes through: admission (auth, shutdown), then the handler;
 * a ServiceError passes through, a runtime PreconditionError becomes FAILED_PRECONDITION, and
 * anything else is logged and answered INTERNAL, so no request can crash the server.
 */
import { status as GrpcStatus, Metadata, type ServerUnaryCall, type sendUnaryData, type ServiceError } from "@grpc/grpc-js";
import { PreconditionError } from "@grok-tools/runtime/host";
import { type Logger } from "@grok-tools/runtime";
import { NO_METRICS, type ServerMetrics } from "../metrics/server-metrics.js";
import { beginCall, type CallNotes, type CallRecord } from "./call-log.js";

/** What a handler needs from its server. */
export interface HandlerContext {
  /** Throws a ServiceError when the call is not allowed (auth, shutting down). */
  admit(metadata: Metadata): void;
  log: Logger;
  /** Counts every call (default: nothing). */
  metrics?: ServerMetrics;
}

/** A gRPC status error. */
export function grpcError(code: GrpcStatus, details: string, metadata?: Metadata): ServiceError {
  const error = new Error(details) as ServiceError;
  error.code = code;
  error.details = details;
  error.metadata = metadata ?? new Metadata();
  return error;
}

export function isServiceError(value: unknown): value is ServiceError {
  return typeof value === "object" && value !== null && typeof (value as ServiceError).code === "number" && "details" in value;
}

/** The status for a failure of RPC `name`, logging what was unexpected. */
export function statusFor(error: unknown, name: string, log: Logger): ServiceError {
  if (isServiceError(error)) return error;
  if (PreconditionError.is(error)) return grpcError(GrpcStatus.FAILED_PRECONDITION, error.message);
  log.error({ err: error, rpc: name }, "rpc handler failed");
  return grpcError(GrpcStatus.INTERNAL, `${name} failed: internal error (see the server log)`);
}

/** A grpc-js unary handler. */
export type UnaryHandler<Req, Res> = (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => void;

/**
 * Trailers a handler adds to its answer. The Metadata is made only when one is set: most answers
 * carry none, and grpc-js copies the Metadata it is given (two maps per call for nothing, #18).
 */
export class AnswerTrailers {
  #metadata: Metadata | undefined;

  /** As Metadata.set: a text value, or a Buffer for a `-bin` key. */
  set(key: string, value: string | Buffer): void {
    (this.#metadata ??= new Metadata()).set(key, value);
  }

  /** What was set, or undefined when nothing was. */
  get metadata(): Metadata | undefined {
    return this.#metadata;
  }
}

/**
 * Wraps a handler (its answer or a promise of it); `trailers` are sent with the response; what the
 * handler writes into `notes` (tool, call id, session) goes into the call's log line and metrics.
 * An answer given as it is (no promise) is sent in the same turn: a cheap call then costs no promise
 * and no turn here (#18).
 */
export function unaryHandler<Req, Res>(
  ctx: HandlerContext,
  name: string,
  fn: (req: Req, call: ServerUnaryCall<Req, Res>, trailers: AnswerTrailers, notes: CallNotes) => Promise<Res> | Res,
): UnaryHandler<Req, Res> {
  return (call, callback) => {
    const trailers = new AnswerTrailers();
    const record = beginCall(ctx.log, ctx.metrics ?? NO_METRICS, name, call.metadata);
    let answer: Promise<Res> | Res;
    // A thrown error and a rejection are answered alike (no async wrapper: one promise less per call).
    try {
      ctx.admit(call.metadata);
      answer = fn(call.request, call, trailers, record.notes);
    } catch (error) {
      fail(ctx, name, record, callback, error);
      return;
    }
    if (!(answer instanceof Promise)) {
      respond(call, callback, record, trailers, answer);
      return;
    }
    answer.then(
      (response) => respond(call, callback, record, trailers, response),
      (error: unknown) => fail(ctx, name, record, callback, error),
    );
  };
}

function respond<Req, Res>(call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>, record: CallRecord, trailers: AnswerTrailers, response: Res): void {
  // The client gave up: it never sees this answer, so the call counts as cancelled.
  record.end(call.cancelled ? grpcError(GrpcStatus.CANCELLED, "cancelled by the client") : undefined);
  callback(null, response, trailers.metadata);
}

function fail<Res>(ctx: HandlerContext, name: string, record: CallRecord, callback: sendUnaryData<Res>, error: unknown): void {
  const status = statusFor(error, name, ctx.log);
  record.end(status);
  callback(status);
}
