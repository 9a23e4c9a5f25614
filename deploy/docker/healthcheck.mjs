#!/usr/bin/env node
// Docker HEALTHCHECK: asks the server's gRPC health service (grpc.health.v1) whether
// xai.grok.tools.v1.GrokToolsService is SERVING; exit 0 if so, 1 otherwise. Health needs no bearer
// token; with TLS on, set GROK_TOOLS_HEALTH_CA to the CA file.
//
// The address is the server's own listen setting, found as the server finds it (one source: the
// image's /etc/grok-tools/server.yaml, or whatever overrides it): `--listen` on the server's command
// line (PID 1 of the container), else GROK_TOOLS_LISTEN, else the `listen` key of the config file
// (`--config` on that command line, else GROK_TOOLS_CONFIG), else 127.0.0.1:50051. A wildcard host
// (0.0.0.0, ::) is probed on 127.0.0.1. GROK_TOOLS_HEALTH_ADDRESS, when set, replaces all of this.
//
// `node healthcheck.mjs --print-address` prints the address it would probe and exits.
import { readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const DEFAULT_LISTEN = "127.0.0.1:50051";

/** The value of `--name X` or `--name=X` in `args` (the last one wins, as with commander). */
function flagValue(args, name) {
  let value;
  args.forEach((arg, i) => {
    if (arg === `--${name}` && i + 1 < args.length) value = args[i + 1];
    else if (arg.startsWith(`--${name}=`)) value = arg.slice(name.length + 3);
  });
  return value;
}

/** The arguments of the server when it is PID 1 (the image's ENTRYPOINT), else none. */
export function serverArgs(cmdlineFile = "/proc/1/cmdline") {
  try {
    const argv = readFileSync(cmdlineFile, "utf8").split("\0").filter(Boolean);
    const at = argv.findIndex((arg) => /grok-tools-server(\.js)?$/.test(arg));
    return at < 0 ? [] : argv.slice(at + 1);
  } catch {
    return [];
  }
}

/** Loads a dependency of the server (the image and a checkout both have them beside it). */
function requireFromServer(name) {
  return createRequire(import.meta.resolve("@grok-tools/server"))(name);
}

/** The `listen` key of a config file (JSON by extension, else YAML, as the server reads it). */
function listenInFile(file) {
  const text = readFileSync(file, "utf8");
  const values = path.extname(file).toLowerCase() === ".json" ? JSON.parse(text) : requireFromServer("yaml").parse(text);
  const listen = values && typeof values === "object" ? values.listen : undefined;
  return listen === undefined || listen === null ? undefined : String(listen);
}

/** The server's listen address: flag > variable > config file > default (the server's precedence). */
export function serverListen(env = process.env, args = serverArgs()) {
  const flag = flagValue(args, "listen");
  if (flag) return flag;
  if (env.GROK_TOOLS_LISTEN) return env.GROK_TOOLS_LISTEN;
  const configFile = flagValue(args, "config") || env.GROK_TOOLS_CONFIG;
  return (configFile && listenInFile(configFile)) || DEFAULT_LISTEN;
}

/** Where to probe: GROK_TOOLS_HEALTH_ADDRESS, else the listen address with a wildcard host made loopback. */
export function healthAddress(env = process.env, args = serverArgs()) {
  if (env.GROK_TOOLS_HEALTH_ADDRESS) return env.GROK_TOOLS_HEALTH_ADDRESS;
  const listen = serverListen(env, args);
  if (listen.startsWith("unix:")) return listen;
  const at = listen.lastIndexOf(":");
  const host = listen.slice(0, at);
  const wildcard = ["", "0.0.0.0", "::", "[::]", "*"].includes(host);
  return `${wildcard ? "127.0.0.1" : host}:${listen.slice(at + 1)}`;
}

async function check() {
  const address = healthAddress();
  if (process.argv.includes("--print-address")) {
    console.log(address);
    return 0;
  }
  const { credentials, loadPackageDefinition } = requireFromServer("@grpc/grpc-js");
  const { loadSync } = requireFromServer("@grpc/proto-loader");
  const { protoPath } = requireFromServer("grpc-health-check");
  const creds = process.env.GROK_TOOLS_HEALTH_CA ? credentials.createSsl(readFileSync(process.env.GROK_TOOLS_HEALTH_CA)) : credentials.createInsecure();
  const { grpc } = loadPackageDefinition(loadSync(protoPath, { enums: String }));
  const client = new grpc.health.v1.Health(address, creds);
  return new Promise((resolve) =>
    client.check({ service: "xai.grok.tools.v1.GrokToolsService" }, { deadline: Date.now() + 3000 }, (error, reply) => {
      client.close();
      if (error || reply.status !== "SERVING") {
        console.error(`unhealthy (${address}): ${error ? error.message : reply.status}`);
        resolve(1);
      } else resolve(0);
    }),
  );
}

// Run as a script (not imported).
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  check().then(
    (code) => process.exit(code),
    (error) => {
      console.error(`unhealthy: ${error?.message ?? error}`);
      process.exit(1);
    },
  );
}
