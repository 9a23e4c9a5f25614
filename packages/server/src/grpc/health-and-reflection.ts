/**
 * grpc.health.v1 and server reflection beside GrokToolsService, so standard gRPC tooling
 * can probe the server and discover its API from the running process.
 */
import type { Server } from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import { ReflectionService } from "@grpc/reflection";
import { loadSync } from "@grpc/proto-loader";
import { createRequire } from "node:module";

const SERVICE_NAME = "xai.grok.tools.v1.GrokToolsService";

/** Adds both services; returns a switch for the health status. */
export function addHealthAndReflection(server: Server): { setServing(serving: boolean): void } {
  const health = new HealthImplementation({ "": "SERVING", [SERVICE_NAME]: "SERVING" });
  health.addToServer(server);
  const protoPath = createRequire(import.meta.url).resolve("@grok-tools/proto/grok-tools.proto");
  new ReflectionService(loadSync(protoPath, { keepCase: true })).addToServer(server);
  return {
    setServing(serving) {
      const status = serving ? "SERVING" : "NOT_SERVING";
      health.setStatus("", status);
      health.setStatus(SERVICE_NAME, status);
    },
  };
}
