#!/usr/bin/env node
// Docker HEALTHCHECK: asks the server's gRPC health service (grpc.health.v1) whether
// xai.grok.tools.v1.GrokToolsService is SERVING; exit 0 if so, 1 otherwise. The address is
// GROK_TOOLS_HEALTH_ADDRESS, else 127.0.0.1 with the port of GROK_TOOLS_LISTEN (default 50051).
// Health needs no bearer token; with TLS on, set GROK_TOOLS_HEALTH_CA to the CA file.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { credentials, loadPackageDefinition } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";

const require = createRequire(import.meta.resolve("@grok-tools/server"));
const { protoPath } = require("grpc-health-check");
const listen = process.env.GROK_TOOLS_LISTEN || "127.0.0.1:50051";
const port = /:(\d+)$/.exec(listen)?.[1] ?? "50051";
const address = process.env.GROK_TOOLS_HEALTH_ADDRESS || (listen.startsWith("unix:") ? listen : `127.0.0.1:${port}`);
const creds = process.env.GROK_TOOLS_HEALTH_CA ? credentials.createSsl(readFileSync(process.env.GROK_TOOLS_HEALTH_CA)) : credentials.createInsecure();
const { grpc } = loadPackageDefinition(loadSync(protoPath, { enums: String }));
const client = new grpc.health.v1.Health(address, creds);
client.check({ service: "xai.grok.tools.v1.GrokToolsService" }, { deadline: Date.now() + 3000 }, (error, reply) => {
  client.close();
  if (error || reply.status !== "SERVING") {
    console.error(`unhealthy: ${error ? error.message : reply.status}`);
    process.exit(1);
  }
  process.exit(0);
});
