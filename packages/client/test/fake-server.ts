// An in-process grpc-js GrokToolsService for unit tests: every RPC answers with an empty
// response unless a test overrides it, and every call's request and metadata are recorded.
import { Server, ServerCredentials, type Metadata, type UntypedServiceImplementation } from "@grpc/grpc-js";
import { GrokToolsServiceService, type GrokToolsServiceServer } from "@grok-tools/proto";

export interface RecordedCall {
  rpc: string;
  request: unknown;
  metadata: Metadata;
  deadline: number | Date | undefined;
}

export interface FakeServer {
  address: string;
  calls: RecordedCall[];
  close(): Promise<void>;
}

type AnyHandler = (call: { request: unknown; metadata: Metadata; getDeadline(): number | Date }, ...rest: unknown[]) => void;

/** Starts the fake server on `listen` (default 127.0.0.1:0). */
export async function startFakeServer(overrides: Partial<GrokToolsServiceServer> = {}, listen = "127.0.0.1:0"): Promise<FakeServer> {
  const calls: RecordedCall[] = [];
  const impl: UntypedServiceImplementation = {};
  for (const [key, def] of Object.entries(GrokToolsServiceService)) {
    const rpc = def.path.slice(def.path.lastIndexOf("/") + 1);
    const override = (overrides as Record<string, AnyHandler | undefined>)[key];
    const fallback: AnyHandler = def.responseStream
      ? (call) => (call as unknown as { end(): void }).end()
      : (_call, callback) => (callback as (e: null, r: unknown) => void)(null, def.responseDeserialize(Buffer.alloc(0)));
    const handler = override ?? fallback;
    impl[key] = ((call: Parameters<AnyHandler>[0], ...rest: unknown[]) => {
      calls.push({ rpc, request: call.request, metadata: call.metadata, deadline: call.getDeadline() });
      handler(call, ...rest);
    }) as never;
  }
  const server = new Server();
  server.addService(GrokToolsServiceService, impl);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(listen, ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  const address = listen.startsWith("unix:") ? listen : `127.0.0.1:${port}`;
  return {
    address,
    calls,
    close: async () => server.forceShutdown(),
  };
}
