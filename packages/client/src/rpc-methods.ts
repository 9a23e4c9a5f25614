/**
 * The unary RPCs of GrokToolsService as promise methods, derived from the generated service
 * definitions (paths and serializers from the grpc-js one, `fromPartial` from the generic one): one
 * loop installs them, nothing is written per RPC. The call itself (metadata, deadline, cancel,
 * trailers) is the subclass's `invokeUnary`; ExecuteToolStream, the one streaming RPC, is not here.
 */
import { GrokToolsServiceDefinition, GrokToolsServiceService, type DeepPartial } from "@grok-tools/proto";
import type { CallOptions } from "./call-options.js";

type Service = typeof GrokToolsServiceService;

/** The unary RPCs, by their generated method names (`listTools`, `executeTool`, ...). */
export type UnaryRpcName = { [K in keyof Service]: Service[K]["responseStream"] extends false ? K : never }[keyof Service];

/** The request message of a unary RPC. */
export type RpcRequest<K extends UnaryRpcName> = Parameters<Service[K]["requestSerialize"]>[0];

/** The response message of a unary RPC. */
export type RpcResponse<K extends UnaryRpcName> = ReturnType<Service[K]["responseDeserialize"]>;

/** Where a convenience method owns an RPC's name (`executeTool`), its raw method has the `raw` prefix. */
const RAW_METHOD_NAMES: Partial<Record<UnaryRpcName, string>> = { executeTool: "rawExecuteTool" };

/** The promise method of a unary RPC. */
export type RpcMethod<K extends UnaryRpcName> = (request?: DeepPartial<RpcRequest<K>>, options?: CallOptions) => Promise<RpcResponse<K>>;

// Mapped over the service's own keys, so each method keeps the RPC's doc comment (and @deprecated).
type ServiceMethods = { [K in keyof Service]: K extends UnaryRpcName ? RpcMethod<K> : never };

/**
 * One method per unary RPC: takes the request as a DeepPartial (omitted fields get their proto
 * defaults) and resolves with the response, or rejects with ToolsRpcError.
 */
export type UnaryRpcMethods = Pick<ServiceMethods, Exclude<UnaryRpcName, "executeTool">> & {
  /** ExecuteTool, raw: the response as the proto defines it. */
  rawExecuteTool: RpcMethod<"executeTool">;
};

/** What a unary call needs: the RPC name (for errors), its path, the codecs and the request defaults. */
export interface UnaryRpc<Req, Res> {
  name: string;
  path: string;
  requestSerialize: (value: Req) => Buffer;
  responseDeserialize: (value: Buffer) => Res;
  fromPartial: (request: DeepPartial<Req>) => Req;
}

/** The unary RPC `name` of the generated definitions. */
export function unaryRpc<K extends UnaryRpcName>(name: K): UnaryRpc<RpcRequest<K>, RpcResponse<K>> {
  const grpc = GrokToolsServiceService[name];
  const generic = GrokToolsServiceDefinition.methods[name];
  return {
    name: generic.name,
    path: grpc.path,
    requestSerialize: grpc.requestSerialize as (value: RpcRequest<K>) => Buffer,
    responseDeserialize: grpc.responseDeserialize as (value: Buffer) => RpcResponse<K>,
    fromPartial: generic.requestType.fromPartial as (request: DeepPartial<RpcRequest<K>>) => RpcRequest<K>,
  };
}

/** Every unary RPC of the service, in the generated order. */
export const UNARY_RPC_NAMES = (Object.keys(GrokToolsServiceService) as (keyof Service)[]).filter(
  (name): name is UnaryRpcName => !GrokToolsServiceService[name].responseStream,
);

/** The base of ToolsClient: the RPC methods, each a call of `invokeUnary`. */
abstract class UnaryRpcClient {
  /** Runs one unary call and resolves with its response. */
  protected abstract invokeUnary<Req, Res>(rpc: UnaryRpc<Req, Res>, request: DeepPartial<Req> | undefined, options: CallOptions | undefined): Promise<Res>;
}

for (const name of UNARY_RPC_NAMES) {
  const rpc = unaryRpc(name);
  const method = RAW_METHOD_NAMES[name] ?? name;
  Object.defineProperty(UnaryRpcClient.prototype, method, {
    value: function (this: UnaryRpcClient, request?: object, options?: CallOptions) {
      return (this as unknown as { invokeUnary: UnaryRpcClient["invokeUnary"] }).invokeUnary(rpc as UnaryRpc<object, unknown>, request, options);
    },
    writable: true,
    configurable: true,
  });
}

/**
 * UnaryRpcClient with its installed methods in the type. `finalizeToolConfigRequest` is left to the
 * subclass, which adds the violations of the status-details trailer to the response.
 */
export const UnaryRpcBase = UnaryRpcClient as unknown as abstract new () => UnaryRpcClient & Omit<UnaryRpcMethods, "finalizeToolConfigRequest">;
