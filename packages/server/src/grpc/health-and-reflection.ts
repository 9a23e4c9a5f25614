/**
 * grpc.health.v1 and server reflection beside GrokToolsService, so standard gRPC tooling
 * can probe the server and discover its API from the running process. Reflection lists exactly
 * the services this server serves (the proto file also declares GrokToolsCallbackService, which
 * hosts serve, not us).
 */
import type { Server, ServiceDefinition, UntypedHandleCall, UntypedServiceImplementation } from "@grpc/grpc-js";
import { createRequire } from "node:module";

type HealthModule = typeof import("grpc-health-check");
type ServingStatus = "SERVING" | "NOT_SERVING";

const SERVICE_NAME = "xai.grok.tools.v1.GrokToolsService";

/** The fully-qualified services a server answers, as reflection lists them. */
export const SERVED_SERVICES: readonly string[] = [
  SERVICE_NAME,
  "grpc.health.v1.Health",
  "grpc.reflection.v1.ServerReflection",
  "grpc.reflection.v1alpha.ServerReflection",
];

/** The reflection services' full names; each has one bidi method, ServerReflectionInfo. */
const REFLECTION_SERVICES = ["grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"] as const;
const REFLECTION_METHOD = "ServerReflectionInfo";

/** Adds both services; returns a switch for the health status. */
export function addHealthAndReflection(server: Server): { setServing(serving: boolean): void } {
  const health = addLazyHealth(server);
  addLazyReflection(server);
  return health;
}

/** grpc-health-check, loaded once: by the first health call or by reflection (which needs its proto). */
let healthModule: HealthModule | undefined;
function loadHealthModule(): HealthModule {
  // CommonJS, so a synchronous require serves the synchronous serializer hooks.
  healthModule ??= createRequire(import.meta.url)("grpc-health-check") as HealthModule;
  return healthModule;
}

/**
 * grpc.health.v1, built on its first call (issue #18), the way reflection is below: importing
 * grpc-health-check parses its health.proto with proto-loader and protobufjs, about a tenth of a
 * second of a start that a health probe may never need. The service is registered at start with
 * forwarding (de)serializers and handlers; the statuses set before the first call are the ones
 * the real implementation starts with.
 */
function addLazyHealth(server: Server): { setServing(serving: boolean): void } {
  let status: ServingStatus = "SERVING";
  let loaded: { implementation: InstanceType<HealthModule["HealthImplementation"]>; services: Map<string, LoadedReflection> } | undefined;
  const load = () => {
    if (loaded) return loaded;
    const implementation = new (loadHealthModule().HealthImplementation)({ "": status, [SERVICE_NAME]: status });
    const services = new Map<string, LoadedReflection>();
    const recorder = {
      addService(definition: ServiceDefinition, handlers: UntypedServiceImplementation) {
        for (const method of Object.keys(definition)) services.set(method, { definition, handlers });
      },
    } as unknown as Server;
    implementation.addToServer(recorder);
    loaded = { implementation, services };
    return loaded;
  };
  const definition: Record<string, ServiceDefinition[string]> = {};
  const handlers: UntypedServiceImplementation = {};
  for (const [method, shape] of Object.entries(HEALTH_METHODS)) {
    const real = () => {
      const service = load().services.get(method);
      if (!service) throw new Error(`grpc-health-check did not register ${method}`);
      // The library keys its handlers by the methods' original (lower-case) names.
      return { method: service.definition[method]!, handler: (service.handlers[method] ?? service.handlers[shape.originalName])! };
    };
    definition[method] = {
      path: `/grpc.health.v1.Health/${method}`,
      requestStream: false,
      responseStream: shape.responseStream,
      originalName: shape.originalName,
      requestSerialize: (value: unknown) => real().method.requestSerialize(value),
      requestDeserialize: (bytes: Buffer) => real().method.requestDeserialize(bytes),
      responseSerialize: (value: unknown) => real().method.responseSerialize(value),
      responseDeserialize: (bytes: Buffer) => real().method.responseDeserialize(bytes),
    };
    handlers[method] = ((call: unknown, callback?: unknown) =>
      (real().handler as (call: unknown, callback?: unknown) => void)(call, callback)) as UntypedHandleCall;
  }
  server.addService(definition as ServiceDefinition, handlers);
  return {
    setServing(serving) {
      status = serving ? "SERVING" : "NOT_SERVING";
      if (!loaded) return;
      loaded.implementation.setStatus("", status);
      loaded.implementation.setStatus(SERVICE_NAME, status);
    },
  };
}

/** The two methods of grpc.health.v1.Health (health.proto): Check is unary, Watch server-streaming. */
const HEALTH_METHODS = {
  Check: { responseStream: false, originalName: "check" },
  Watch: { responseStream: true, originalName: "watch" },
} as const;

interface LoadedReflection {
  definition: ServiceDefinition;
  handlers: UntypedServiceImplementation;
}

/**
 * Reflection, built on its first call (issue #18): loading @grpc/reflection with protobufjs and
 * proto-loader, parsing the four protos and decoding every file descriptor was the largest part of
 * start-up left, and its memory stayed for the life of a server that is almost never reflected on.
 * grpc-js needs a service definition at `addService`, before any call; so each reflection service
 * is registered with a definition of its own whose (de)serializers and handler forward to the real
 * ones, which the first use of either loads (once, for both versions). The method path, streaming
 * shape and bytes on the wire are the real service's.
 */
function addLazyReflection(server: Server): void {
  let loaded: Map<string, LoadedReflection> | undefined;
  const load = (): Map<string, LoadedReflection> => {
    if (loaded) return loaded;
    // CommonJS packages, so a synchronous require serves the synchronous serializer hooks.
    const require = createRequire(import.meta.url);
    const { ReflectionService } = require("@grpc/reflection") as typeof import("@grpc/reflection");
    const { loadSync } = require("@grpc/proto-loader") as typeof import("@grpc/proto-loader");
    // The health and reflection protos are loaded too, so reflection can describe those services.
    const protos = [
      require.resolve("@grok-tools/proto/grok-tools.proto"),
      loadHealthModule().protoPath,
      require.resolve("@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto"),
      require.resolve("@grpc/reflection/build/proto/grpc/reflection/v1alpha/reflection.proto"),
    ];
    const services = new Map<string, LoadedReflection>();
    // The library registers its services itself; a recording stand-in for the server keeps them.
    const recorder = {
      addService(definition: ServiceDefinition, handlers: UntypedServiceImplementation) {
        const path = definition[REFLECTION_METHOD]!.path;
        services.set(path.slice(1, path.lastIndexOf("/")), { definition, handlers });
      },
    } as unknown as Server;
    new ReflectionService(loadSync(protos, { keepCase: true }), { services: [...SERVED_SERVICES] }).addToServer(recorder);
    loaded = services;
    return services;
  };
  for (const name of REFLECTION_SERVICES) {
    const real = () => {
      const service = load().get(name);
      if (!service) throw new Error(`@grpc/reflection did not register ${name}`);
      return { method: service.definition[REFLECTION_METHOD]!, handler: service.handlers[REFLECTION_METHOD]! };
    };
    const definition: ServiceDefinition = {
      [REFLECTION_METHOD]: {
        path: `/${name}/${REFLECTION_METHOD}`,
        requestStream: true,
        responseStream: true,
        originalName: "serverReflectionInfo",
        requestSerialize: (value: unknown) => real().method.requestSerialize(value),
        requestDeserialize: (bytes: Buffer) => real().method.requestDeserialize(bytes),
        responseSerialize: (value: unknown) => real().method.responseSerialize(value),
        responseDeserialize: (bytes: Buffer) => real().method.responseDeserialize(bytes),
      },
    };
    const handler = ((call: Parameters<UntypedHandleCall & ((call: never) => void)>[0]) =>
      (real().handler as (call: unknown) => void)(call)) as UntypedHandleCall;
    server.addService(definition, { [REFLECTION_METHOD]: handler });
  }
}
