/**
 * grpc.health.v1 and server reflection beside GrokToolsService, so standard gRPC tooling
 * can probe the server and discover its API from the running process. Reflection lists exactly
 * the services this server serves (the proto file also declares GrokToolsCallbackService, which
 * hosts serve, not us).
 */
import type { Server } from "@grpc/grpc-js";
import { HealthImplementation, protoPath as healthProtoPath } from "grpc-health-check";
import { ReflectionService } from "@grpc/reflection";
import { loadSync } from "@grpc/proto-loader";
import { createRequire } from "node:module";

const SERVICE_NAME = "xai.grok.tools.v1.GrokToolsService";

/** The fully-qualified services a server answers, as reflection lists them. */
export const SERVED_SERVICES: readonly string[] = [
  SERVICE_NAME,
  "grpc.health.v1.Health",
  "grpc.reflection.v1.ServerReflection",
  "grpc.reflection.v1alpha.ServerReflection",
];

/** Adds both services; returns a switch for the health status. */
export function addHealthAndReflection(server: Server): { setServing(serving: boolean): void } {
  const health = new HealthImplementation({ "": "SERVING", [SERVICE_NAME]: "SERVING" });
  health.addToServer(server);
  const require = createRequire(import.meta.url);
  // The health and reflection protos are loaded too, so reflection can describe those services.
  const protos = [
    require.resolve("@grok-tools/proto/grok-tools.proto"),
    healthProtoPath,
    require.resolve("@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto"),
    require.resolve("@grpc/reflection/build/proto/grpc/reflection/v1alpha/reflection.proto"),
  ];
  new ReflectionService(loadSync(protos, { keepCase: true }), { services: [...SERVED_SERVICES] }).addToServer(server);
  return {
    setServing(serving) {
      const status = serving ? "SERVING" : "NOT_SERVING";
      health.setStatus("", status);
      health.setStatus(SERVICE_NAME, status);
    },
  };
}
