// The shipped deploy/ files, without docker or kubectl: the image's server.yaml and the Kubernetes
// ConfigMap's load through the server's own --config (--print-config), the Docker HEALTHCHECK probes
// the port that file sets (and a real server started from such a file answers it), the Kubernetes
// and Envoy YAML parse and agree with each other, and both Envoy routes hash on x-grok-session-id.
// (deploy/nginx/grok-tools.conf is run by `npm run scale-test`.)
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { execFile, execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { BIN, cleanUp, SERVER_TEST_TIMEOUT_MS, startServer, tempDir } from "./run-server.js";

jest.setTimeout(SERVER_TEST_TIMEOUT_MS);

afterEach(cleanUp);

const DEPLOY = path.resolve(import.meta.dirname, "../../../deploy");
const HEALTHCHECK = path.join(DEPLOY, "docker/healthcheck.mjs");
const read = (file: string) => readFileSync(path.join(DEPLOY, file), "utf8");

/** The command's environment without any GROK_TOOLS_* setting, so that only the file speaks. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("GROK_TOOLS_"))), ...extra };
}

/** `--config FILE --print-config`: key → [value, source] (throws when the server refuses the file). */
function printConfig(file: string): Map<string, [unknown, string]> {
  const out = execFileSync(process.execPath, [BIN, "--config", file, "--print-config"], { encoding: "utf8", env: cleanEnv() });
  const settings = new Map<string, [unknown, string]>();
  for (const line of out.split("\n")) {
    const match = /^([a-z][a-z0-9-]*): (.*?)  # (.*)$/.exec(line);
    if (match) settings.set(match[1]!, [JSON.parse(match[2]!), match[3]!]);
  }
  return settings;
}

/** healthAddress(env, serverArgs) of the health script for each case, run in one Node of its own (as the image runs it). */
function healthAddresses(cases: [Record<string, string>, string[]][]): string[] {
  const script = `import(${JSON.stringify(HEALTHCHECK)}).then((m) => console.log(JSON.stringify(${JSON.stringify(cases)}.map(([env, args]) => m.healthAddress(env, args)))))`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", env: cleanEnv() })) as string[];
}

function runHealthcheck(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [HEALTHCHECK], { env: cleanEnv(env) }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const portOf = (listen: unknown) => Number(/:(\d+)$/.exec(String(listen))?.[1]);

/** Every object below `value` (depth first) that has key `key`. */
function withKey(value: unknown, key: string): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap((v) => withKey(v, key));
  if (value === null || typeof value !== "object") return [];
  const own = key in value ? [value as Record<string, unknown>] : [];
  return [...own, ...Object.values(value).flatMap((v) => withKey(v, key))];
}

/** The documents of a multi-document YAML file; a syntax error in any fails. */
function documents(file: string): Record<string, unknown>[] {
  const docs = parseAllDocuments(read(file));
  for (const doc of docs) expect(doc.errors).toEqual([]);
  return docs.map((doc) => doc.toJS() as Record<string, unknown>).filter(Boolean);
}

/** The parts of the Kubernetes objects this test reads. */
interface Manifest {
  kind: string;
  metadata: { name: string };
  data: Record<string, string>;
  spec: {
    clusterIP?: string;
    selector: Record<string, string> & { matchLabels: Record<string, string> };
    ports: { port: number; targetPort: string }[];
    template: {
      metadata: { annotations: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds: number;
        containers: {
          name: string;
          args: string[];
          ports: { name: string; containerPort: number }[];
          readinessProbe: { grpc: { port: number; service?: string } };
          livenessProbe: { grpc: { port: number } };
          volumeMounts: { name: string; mountPath: string }[];
        }[];
      };
    };
  };
}

function kind(docs: Record<string, unknown>[], wanted: string, name?: string): Manifest {
  const found = docs.find((d) => d.kind === wanted && (name === undefined || (d.metadata as { name: string }).name === name));
  expect(found).toBeDefined();
  return found as unknown as Manifest;
}

describe("deploy/docker", () => {
  it("server.yaml loads through --config, and the HEALTHCHECK probes the port it sets", () => {
    const file = path.join(DEPLOY, "docker/server.yaml");
    const settings = printConfig(file);
    for (const key of Object.keys(parse(read("docker/server.yaml")) as object)) expect(settings.get(key)?.[1]).toBe("config file");
    const listen = settings.get("listen")![0];
    expect(healthAddresses([[{ GROK_TOOLS_CONFIG: file }, []]])).toEqual([`127.0.0.1:${portOf(listen)}`]);

    // The image: that file at the path GROK_TOOLS_CONFIG names, the script as the HEALTHCHECK, its ports exposed.
    const dockerfile = read("docker/Dockerfile");
    const configPath = /GROK_TOOLS_CONFIG=(\S+)/.exec(dockerfile)?.[1];
    expect(dockerfile).toContain(`COPY --chown=root:root deploy/docker/server.yaml ${configPath}`);
    expect(dockerfile).toMatch(/HEALTHCHECK[^\n]*\\\n\s*CMD \["node", "\/opt\/grok-tools\/deploy\/docker\/healthcheck\.mjs"\]/);
    const exposed = /^EXPOSE (.*)$/m.exec(dockerfile)![1]!.split(/\s+/).map(Number);
    expect(exposed).toEqual(expect.arrayContaining([portOf(listen), portOf(settings.get("metrics-listen")![0])]));
    // One source for the port: the image sets no listen variable beside the file.
    expect(dockerfile).not.toMatch(/GROK_TOOLS_LISTEN=/);
  });

  it("the health script finds the listen address as the server does: flag > variable > config file > default", () => {
    const dir = tempDir("grok-deploy-");
    const yamlFile = path.join(dir, "a.yaml");
    writeFileSync(yamlFile, "listen: 0.0.0.0:7001\n");
    const jsonFile = path.join(dir, "b.json");
    writeFileSync(jsonFile, JSON.stringify({ listen: "10.1.2.3:7002" }));
    const cases: [Record<string, string>, string[], string][] = [
      [{}, [], "127.0.0.1:50051"],
      [{ GROK_TOOLS_CONFIG: yamlFile }, [], "127.0.0.1:7001"],
      [{ GROK_TOOLS_CONFIG: jsonFile }, [], "10.1.2.3:7002"],
      [{ GROK_TOOLS_CONFIG: yamlFile, GROK_TOOLS_LISTEN: "[::]:7003" }, [], "127.0.0.1:7003"],
      [{ GROK_TOOLS_CONFIG: yamlFile }, ["--config", jsonFile], "10.1.2.3:7002"],
      [{ GROK_TOOLS_LISTEN: "0.0.0.0:7003" }, ["--listen=unix:/run/grok.sock"], "unix:/run/grok.sock"],
      [{ GROK_TOOLS_CONFIG: yamlFile, GROK_TOOLS_HEALTH_ADDRESS: "localhost:9" }, [], "localhost:9"],
    ];
    expect(healthAddresses(cases.map(([env, args]) => [env, args]))).toEqual(cases.map(([, , expected]) => expected));
  });

  it("the HEALTHCHECK passes against a server started from the image's config file, and fails where none listens", async () => {
    const dir = tempDir("grok-deploy-");
    // The shipped file, with its paths and ports moved where this test may use them.
    const port = await freePort();
    const config = {
      ...(parse(read("docker/server.yaml")) as Record<string, unknown>),
      listen: `0.0.0.0:${port}`,
      workspace: dir,
      "state-dir": path.join(dir, "state"),
      "auth-token-file": path.join(dir, "token"),
      "metrics-listen": "127.0.0.1:0",
    };
    writeFileSync(path.join(dir, "token"), "deploy-test-token\n");
    const configFile = path.join(dir, "server.yaml");
    writeFileSync(
      configFile,
      Object.entries(config)
        .map(([k, v]) => `${k}: ${String(v)}\n`)
        .join(""),
    );
    const server = startServer([], { env: cleanEnv({ GROK_TOOLS_CONFIG: configFile, GROK_TOOLS_LOG_LEVEL: "warn" }) });
    expect(await server.listening).toBe(`0.0.0.0:${port}`);
    expect(await runHealthcheck({ GROK_TOOLS_CONFIG: configFile })).toEqual({ code: 0, stderr: "" });
    // A variable overrides the file for the server, and so for the check: nothing listens there.
    const other = await runHealthcheck({ GROK_TOOLS_CONFIG: configFile, GROK_TOOLS_LISTEN: `127.0.0.1:${await freePort()}` });
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/unhealthy/);
  });
});

describe("deploy/kubernetes", () => {
  const servers = documents("kubernetes/grok-tools.yaml");
  const envoy = documents("kubernetes/envoy.yaml");

  it("the ConfigMap's server.yaml loads through --config; ports, probes, Service and grace agree with it", () => {
    const configMap = kind(servers, "ConfigMap", "grok-tools-config");
    const dir = tempDir("grok-deploy-");
    const file = path.join(dir, "server.yaml");
    writeFileSync(file, configMap.data["server.yaml"]!);
    const settings = printConfig(file);
    expect(settings.get("state-lock")).toEqual(["session", "config file"]);
    const grpcPort = portOf(settings.get("listen")![0]);
    const metricsPort = portOf(settings.get("metrics-listen")![0]);

    const deployment = kind(servers, "Deployment", "grok-tools");
    const pod = deployment.spec.template;
    const container = pod.spec.containers.find((c) => c.name === "server")!;
    expect(container.args).toEqual(["--config", `${container.volumeMounts.find((m) => m.name === "config")!.mountPath}/server.yaml`]);
    const ports = Object.fromEntries(container.ports.map((p) => [p.name, p.containerPort]));
    expect(ports).toEqual({ grpc: grpcPort, metrics: metricsPort });
    expect(container.readinessProbe.grpc).toEqual({ port: grpcPort, service: "xai.grok.tools.v1.GrokToolsService" });
    expect(container.livenessProbe.grpc.port).toBe(grpcPort);
    expect(Number(pod.metadata.annotations["prometheus.io/port"])).toBe(metricsPort);
    // The pod's stop outlasts the server's own grace (running calls finish, the state is flushed).
    expect(pod.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(settings.get("shutdown-grace")![0] as number);

    const headless = kind(servers, "Service", "grok-tools-headless");
    expect(headless.spec.clusterIP).toBe("None");
    expect(headless.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    expect(headless.spec.ports[0]).toMatchObject({ port: grpcPort, targetPort: "grpc" });

    // Envoy's cluster resolves that Service, on that port.
    const envoyConfig = parse(kind(envoy, "ConfigMap", "grok-tools-envoy").data["envoy.yaml"]!) as unknown;
    const endpoints = withKey(envoyConfig, "socket_address").map((s) => s.socket_address as { address: string; port_value: number });
    expect(endpoints).toContainEqual({ address: headless.metadata.name, port_value: grpcPort });
  });
});

describe("Envoy routes", () => {
  const configs: [string, unknown][] = [
    ["deploy/envoy/envoy.yaml", parse(read("envoy/envoy.yaml"))],
    ["deploy/kubernetes/envoy.yaml", parse(kind(documents("kubernetes/envoy.yaml"), "ConfigMap", "grok-tools-envoy").data["envoy.yaml"]!)],
  ];

  it.each(configs)("%s hashes on x-grok-session-id over a RING_HASH cluster", (_name, config) => {
    const routes = withKey(config, "route").map((r) => r.route as { cluster: string; hash_policy?: { header?: { header_name: string } }[] });
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(route.hash_policy).toEqual([{ header: { header_name: "x-grok-session-id" } }]);
    const clusters = withKey(config, "lb_policy");
    for (const route of routes) expect(clusters.find((c) => c.name === route.cluster)).toMatchObject({ lb_policy: "RING_HASH" });
    // Upstream HTTP/2 (gRPC) and the servers' own health service.
    expect(JSON.stringify(config)).toContain('"http2_protocol_options":{}');
    expect(withKey(config, "grpc_health_check")[0]).toMatchObject({ grpc_health_check: { service_name: "xai.grok.tools.v1.GrokToolsService" } });
  });
});
