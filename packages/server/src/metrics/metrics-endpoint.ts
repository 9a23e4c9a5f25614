/**
 * The HTTP endpoint Prometheus scrapes (`--metrics-listen HOST:PORT`): GET /metrics answers the
 * registry in the text exposition format; everything else is 404. It serves no secret and no file
 * content, so it takes no token; bind it where only the scraper reaches.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import type { Logger } from "@grok-tools/runtime";
import { parseListenAddress } from "../listen-address.js";

/** A listening metrics endpoint. */
export interface MetricsEndpoint {
  /** `host:port` as bound (port 0 resolved). */
  readonly address: string;
  close(): Promise<void>;
}

/** Binds the endpoint; rejects with the bind error (address in use, ...). */
export async function serveMetrics(address: string, registry: Registry, log: Logger): Promise<MetricsEndpoint> {
  const parsed = parseListenAddress(address);
  const server: Server = createServer((req, res) => {
    const url = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" || (url !== "/metrics" && url !== "/metrics/")) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found: metrics are at /metrics\n");
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: unknown) => {
        log.error({ err: error }, "metrics collection failed");
        res.writeHead(500, { "content-type": "text/plain" }).end("metrics collection failed\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if (parsed.kind === "unix") server.listen(parsed.path, resolve);
    else server.listen(parsed.port, parsed.host, resolve);
  });
  // A scrape must never keep the process alive during shutdown.
  server.unref();
  const bound = server.address();
  const shown = typeof bound === "string" ? `unix:${bound}` : address.replace(/:\d+$/, `:${(bound as AddressInfo).port}`);
  return {
    address: shown,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
