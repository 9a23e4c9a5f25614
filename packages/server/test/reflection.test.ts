// Server reflection as grpcurl and Postman use it, against the real command: it lists exactly the
// services the server answers (tools, health, reflection) and can describe each of them.
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { createRequire } from "node:module";
import path from "node:path";
import {
  credentials,
  loadPackageDefinition,
  status as grpcStatus,
  type ClientDuplexStream,
  type ClientReadableStream,
  type GrpcObject,
  type ServiceClientConstructor,
  type ServiceError,
} from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { cleanUp, SERVER_TEST_TIMEOUT_MS, startServer, tempDir } from "./run-server.js";

// Each test starts a server process: on a loaded machine its start alone can take tens of seconds.
jest.setTimeout(SERVER_TEST_TIMEOUT_MS);

const require = createRequire(import.meta.url);
const SERVED = [
  "grpc.health.v1.Health",
  "grpc.reflection.v1.ServerReflection",
  "grpc.reflection.v1alpha.ServerReflection",
  "xai.grok.tools.v1.GrokToolsService",
];

interface ReflectionResponse {
  listServicesResponse?: { service: { name: string }[] };
  fileDescriptorResponse?: { fileDescriptorProto: Buffer[] };
  errorResponse?: { errorCode: number; errorMessage: string };
}

let address: string;
beforeAll(async () => {
  const dir = tempDir();
  address = await startServer(["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", path.join(dir, "state"), "--log-level", "silent"]).listening;
});
afterAll(cleanUp);

/** A reflection client of one protocol version, built from @grpc/reflection's own proto file. */
function reflectionClient(version: "v1" | "v1alpha") {
  const proto = require.resolve(`@grpc/reflection/build/proto/grpc/reflection/${version}/reflection.proto`);
  const pkg = loadPackageDefinition(loadSync(proto, { longs: Number })) as unknown as { grpc: { reflection: Record<string, GrpcObject> } };
  const Client = pkg.grpc.reflection[version]!.ServerReflection as ServiceClientConstructor;
  return new Client(address, credentials.createInsecure());
}

/** Sends one request on a fresh reflection stream and resolves with the answer. */
function ask(version: "v1" | "v1alpha", request: Record<string, string>): Promise<ReflectionResponse> {
  const client = reflectionClient(version);
  return new Promise((resolve, reject) => {
    const stream = (client as unknown as { ServerReflectionInfo(): ClientDuplexStream<unknown, ReflectionResponse> }).ServerReflectionInfo();
    stream.on("data", (response: ReflectionResponse) => {
      resolve(response);
      stream.end();
      client.close();
    });
    stream.on("error", (error: ServiceError) => reject(error));
    stream.write(request);
  });
}

describe.each(["v1", "v1alpha"] as const)("reflection %s", (version) => {
  it("lists the tools service, health and reflection, and not GrokToolsCallbackService", async () => {
    const response = await ask(version, { listServices: "*" });
    const names = response.listServicesResponse!.service.map((s) => s.name).sort();
    expect(names).toEqual(SERVED);
    expect(names).not.toContain("xai.grok.tools.v1.GrokToolsCallbackService");
  });

  it.each(SERVED)("describes %s", async (service) => {
    const response = await ask(version, { fileContainingSymbol: service });
    expect(response.errorResponse).toBeUndefined();
    expect(response.fileDescriptorResponse!.fileDescriptorProto.length).toBeGreaterThan(0);
  });
});

describe("health", () => {
  it("answers SERVING for the server and the tools service", async () => {
    const proto = require.resolve("grpc-health-check/proto/health/v1/health.proto");
    const pkg = loadPackageDefinition(loadSync(proto, { enums: String })) as unknown as { grpc: { health: { v1: { Health: ServiceClientConstructor } } } };
    const client = new pkg.grpc.health.v1.Health(address, credentials.createInsecure()) as unknown as {
      check(request: { service: string }, callback: (error: ServiceError | null, response: { status: string }) => void): void;
      close(): void;
    };
    for (const service of ["", "xai.grok.tools.v1.GrokToolsService"]) {
      const status = await new Promise<string>((resolve, reject) => client.check({ service }, (e, r) => (e ? reject(e) : resolve(r.status))));
      expect(status).toBe("SERVING");
    }
    const unknown = await new Promise<ServiceError | null>((resolve) => client.check({ service: "no.such.Service" }, (e) => resolve(e)));
    expect(unknown?.code).toBe(grpcStatus.NOT_FOUND);
    client.close();
  });

  it("streams the status to a Watch", async () => {
    const proto = require.resolve("grpc-health-check/proto/health/v1/health.proto");
    const pkg = loadPackageDefinition(loadSync(proto, { enums: String })) as unknown as { grpc: { health: { v1: { Health: ServiceClientConstructor } } } };
    const client = new pkg.grpc.health.v1.Health(address, credentials.createInsecure()) as unknown as {
      watch(request: { service: string }): ClientReadableStream<{ status: string }>;
      close(): void;
    };
    const call = client.watch({ service: "xai.grok.tools.v1.GrokToolsService" });
    const first = await new Promise<string>((resolve, reject) => {
      call.once("data", (reply: { status: string }) => resolve(reply.status));
      call.once("error", reject);
    });
    expect(first).toBe("SERVING");
    call.cancel();
    client.close();
  });
});
