/**
 * A grpc-js Server whose unary and server-streaming methods answer INVALID_ARGUMENT for a request
 * body that does not decode. grpc-js itself answers INTERNAL there ("Error deserializing request"),
 * which tells a client the server is broken when the client sent garbage. Decoding is wrapped at
 * `register`, the one place every added service (tools, health, reflection) passes through.
 * Request-streaming methods (reflection's) are left as grpc-js has them. The same place gives
 * ExecuteTool its response encoder without intermediate copies (execute-response-encoding.ts).
 */
import { GrokToolsServiceService, decodeStringsStrictly } from "@grok-tools/proto";
import { Server, status as GrpcStatus, type ServerUnaryCall, type ServerWritableStream, type sendUnaryData } from "@grpc/grpc-js";
// grpc-js does not re-export the types of `register`'s parameters from its root.
import type { HandleCall } from "@grpc/grpc-js/build/src/server-call.js";
import type { Deserialize, Serialize } from "@grpc/grpc-js/build/src/make-client.js";
import { serializeExecuteToolResponse, serializeToolStreamChunk } from "./execute-response-encoding.js";

const UNDECODABLE = Symbol("grok-tools.undecodableRequest");

/** What a handler receives in place of a request that did not decode. */
interface UndecodableRequest {
  readonly [UNDECODABLE]: true;
  readonly reason: string;
}

function isUndecodable(value: unknown): value is UndecodableRequest {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[UNDECODABLE] === true;
}

/** The status of an undecodable request to method `path`. */
function invalidArgument(path: string, reason: string): { code: GrpcStatus; details: string } {
  const message = path.slice(path.lastIndexOf("/") + 1);
  if (/utf-?8/i.test(reason)) {
    return {
      code: GrpcStatus.INVALID_ARGUMENT,
      details: `The ${message} request has a string field that is not valid UTF-8 (proto3 strings must be); send its text UTF-8 encoded.`,
    };
  }
  // The message is well-formed; its 64-bit integer is only beyond what the decoder keeps exactly.
  if (reason.includes("MAX_SAFE_INTEGER")) {
    return {
      code: GrpcStatus.INVALID_ARGUMENT,
      details: `The ${message} request has a 64-bit integer field (such as timeout_ms) above ${Number.MAX_SAFE_INTEGER}, the largest value this server accepts; send a smaller value.`,
    };
  }
  return {
    code: GrpcStatus.INVALID_ARGUMENT,
    details: `The ${message} request body is not a valid protobuf message (${reason}); send the method's request message, protobuf-encoded.`,
  };
}

/** Server with request-decoding failures answered INVALID_ARGUMENT (see the module comment). */
export class ToolsGrpcServer extends Server {
  constructor(...args: ConstructorParameters<typeof Server>) {
    super(...args);
    decodeStringsStrictly();
  }

  override register<RequestType, ResponseType>(
    name: string,
    handler: HandleCall<RequestType, ResponseType>,
    serialize: Serialize<ResponseType>,
    deserialize: Deserialize<RequestType>,
    type: string,
  ): boolean {
    if (type !== "unary" && type !== "serverStream") return super.register(name, handler, serialize, deserialize, type);
    const decode = (bytes: Buffer): RequestType => {
      try {
        return deserialize(bytes);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        // The marker travels where grpc-js expects the request; the wrapped handler catches it first.
        return { [UNDECODABLE]: true, reason } satisfies UndecodableRequest as unknown as RequestType;
      }
    };
    const checked =
      type === "unary"
        ? (call: ServerUnaryCall<RequestType, ResponseType>, callback: sendUnaryData<ResponseType>) => {
            if (isUndecodable(call.request)) return callback(invalidArgument(name, call.request.reason));
            (handler as (c: typeof call, cb: typeof callback) => void)(call, callback);
          }
        : (call: ServerWritableStream<RequestType, ResponseType>) => {
            // emit("error") sends the status and ends the call (destroy would leave it open in grpc-js 1.14).
            if (isUndecodable(call.request)) return void call.emit("error", invalidArgument(name, call.request.reason));
            (handler as (c: typeof call) => void)(call);
          };
    // Same bytes as the generated serializer, written once (issue #18).
    const encode =
      name === GrokToolsServiceService.executeTool.path
        ? (serializeExecuteToolResponse as unknown as Serialize<ResponseType>)
        : name === GrokToolsServiceService.executeToolStream.path
          ? (serializeToolStreamChunk as unknown as Serialize<ResponseType>)
          : serialize;
    return super.register(name, checked as HandleCall<RequestType, ResponseType>, encode, decode, type);
  }
}
