/**
 * The `grok-tools-server` command: flags, logging to stderr as JSON lines, one
 * `{"event":"listening"}` line on stdout when ready, graceful shutdown on SIGTERM/SIGINT.
 */
import { Command, Option } from "commander";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { detectProcessIsolation, loadAgentDefinition, type Logger } from "@grok-tools/runtime";
import { createToolsServer } from "./create-server.js";
import { loadNamespaces } from "./load-namespaces.js";
import { serverVersion } from "./version.js";

/** Default listen address. */
export const DEFAULT_LISTEN = "127.0.0.1:50051";

/** Whether an address only reaches this machine. */
export function isLoopbackAddress(address: string): boolean {
  if (address.startsWith("unix:")) return true;
  const host = address.replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}

/** Parses argv and runs the server until a signal stops it. */
export async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name("grok-tools-server")
    .description("Serve the Grok tools runtime (xai.grok.tools.v1.GrokToolsService) over gRPC.")
    .version(serverVersion, "-V, --version")
    .option("--listen <address>", "HOST:PORT or unix:PATH (port 0 picks a free port)", process.env.GROK_TOOLS_LISTEN ?? DEFAULT_LISTEN)
    .option("--workspace <dir>", "workspace folder the tools work in", process.cwd())
    .option("--state-dir <dir>", "folder for per-session state and logs (default: $XDG_STATE_HOME/grok-tools)")
    .option("--allow-path <dir...>", "extra folders file tools may reach besides the workspace")
    .addOption(new Option("--fs-scope <scope>", "path confinement of file tools").choices(["workspace", "any"]).default("workspace"))
    .option("--namespace <package...>", "extra tool namespace packages to load")
    .addOption(new Option("--gitignore <mode>", "honour .gitignore in file tools: off, edits (search_replace), all (read_file too)").choices(["off", "edits", "all"]).default("off"))
    .option("--agent <file>", "agent definition (JSON, or Markdown with front matter) for the agent RPCs")
    .option("--auth-token <token>", "require 'authorization: Bearer <token>' (or GROK_TOOLS_AUTH_TOKEN)")
    .option("--tls-cert <file>", "TLS certificate chain (PEM)")
    .option("--tls-key <file>", "TLS private key (PEM)")
    .option("--tls-client-ca <file>", "require client certificates signed by this CA (mTLS)")
    .option("--insecure", "allow a non-loopback address without a token or TLS", false)
    .addOption(new Option("--log-level <level>", "log level").choices(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"))
    .showHelpAfterError();
  program.parse(argv);
  const opts = program.opts<{
    listen: string;
    workspace: string;
    stateDir?: string;
    allowPath?: string[];
    fsScope: "workspace" | "any";
    namespace?: string[];
    agent?: string;
    gitignore: "off" | "edits" | "all";
    authToken?: string;
    tlsCert?: string;
    tlsKey?: string;
    tlsClientCa?: string;
    insecure: boolean;
    logLevel: string;
  }>();

  const log = pino({ level: opts.logLevel, base: { service: "grok-tools-server" } }, pino.destination(2)) as unknown as Logger;
  const authToken = opts.authToken ?? process.env.GROK_TOOLS_AUTH_TOKEN;
  // The token must not leak into the environment of commands the tools run.
  delete process.env.GROK_TOOLS_AUTH_TOKEN;
  if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined)) fail(program, "--tls-cert and --tls-key go together");
  const tls = opts.tlsCert && opts.tlsKey
    ? { cert: readFileSync(opts.tlsCert), key: readFileSync(opts.tlsKey), ...(opts.tlsClientCa ? { ca: readFileSync(opts.tlsClientCa) } : {}) }
    : undefined;
  if (!isLoopbackAddress(opts.listen) && !authToken && !tls && !opts.insecure) {
    fail(program, `refusing to listen on ${opts.listen} without --auth-token or TLS; pass --insecure to do it anyway`);
  }

  const workspace = path.resolve(opts.workspace);
  const namespaces = await loadNamespaces(opts.namespace ?? [], process.cwd());
  const agent = opts.agent ? await loadAgentDefinition(path.resolve(opts.agent)) : undefined;
  const server = createToolsServer({
    workspace,
    ...(opts.stateDir ? { stateDir: path.resolve(opts.stateDir) } : {}),
    ...(opts.allowPath ? { allowPaths: opts.allowPath } : {}),
    fsScope: opts.fsScope,
    namespaces,
    ...(agent ? { agent } : {}),
    gitignore: opts.gitignore,
    ...(authToken ? { authToken } : {}),
    ...(tls ? { tls } : {}),
    log,
    version: serverVersion,
  });
  let address: string;
  try {
    address = await server.listen(opts.listen);
  } catch (error) {
    log.error({ err: error, listen: opts.listen }, "cannot listen");
    process.exitCode = 1;
    return;
  }
  const isolation = detectProcessIsolation();
  // Decision D4: say so when commands cannot get their own PID namespace.
  if (isolation.mode === "pid-namespace") log.info({ isolation: isolation.mode }, isolation.detail);
  else log.warn({ isolation: isolation.mode }, isolation.detail);
  log.info({ address, workspace, stateDir: server.session.stateDir, fsScope: opts.fsScope }, "grok-tools-server ready");
  process.stdout.write(`${JSON.stringify({ event: "listening", address })}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    server.shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

function fail(program: Command, message: string): never {
  program.error(`error: ${message}`, { exitCode: 2 });
}
