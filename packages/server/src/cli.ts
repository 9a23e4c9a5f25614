/**
 * The `grok-tools-server` command: flags, logging to stderr as JSON lines, one
 * `{"event":"listening"}` line on stdout when ready, graceful shutdown on SIGTERM/SIGINT.
 * Exit codes: 0 stopped by a signal (or --help/--version), 1 could not start or failed (address in
 * use, state folder held by another server), 2 usage (a bad flag, or a file or folder it names).
 */
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { readFileSync } from "node:fs";
import { X509Certificate, createPrivateKey } from "node:crypto";
import path from "node:path";
import { format } from "node:util";
import { pino } from "pino";
import { setLogger as setGrpcLogger } from "@grpc/grpc-js";
import { detectProcessIsolationAsync } from "@grok-tools/tasks";
import { DEFAULT_CALL_RESULTS_MAX_AGE_MS, DEFAULT_CALL_RESULTS_MAX_ENTRIES, loadAgentDefinition } from "@grok-tools/runtime/host";
import { type Logger } from "@grok-tools/runtime";
import { MAX_MESSAGE_BYTES } from "@grok-tools/proto";
import {
  BUILTIN_NAMESPACES,
  SHUTDOWN_GRACE_MS,
  createToolsServer,
  DEFAULT_KEEPALIVE_TIME_MS,
  DEFAULT_KEEPALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTION_AGE_GRACE_MS,
  type ToolsServer,
} from "./create-server.js";
import { NamespaceRegistrationError } from "./namespace-registry.js";
import { DEFAULT_MAX_CALLS_PER_SESSION, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT_MS } from "./sessions/session-registry.js";
import { loadNamespaces } from "./load-namespaces.js";
import { serverVersion } from "./version.js";
import { AUTH_TOKEN_ENV, readAuthToken, scrubAuthToken } from "./auth-token.js";
import { describeListenFailure, isLoopbackAddress, parseListenAddress } from "./listen-address.js";
import { ServerSetupError } from "./state/state-folder.js";
import { StateFolderInUseError } from "./state/state-folder-lock.js";
import { watchLauncher } from "./launcher-watch.js";
import { createPrometheusMetrics } from "./metrics/server-metrics.js";
import { serveMetrics } from "./metrics/metrics-endpoint.js";
import { ConfigError, applyEnvAndFile, envName, formatSettings, loadConfigFile, type Setting } from "./config/flag-config.js";

export { isLoopbackAddress } from "./listen-address.js";
export { keepOldGenerationRoom } from "./heap-growth.js";

/** Default listen address. */
export const DEFAULT_LISTEN = "127.0.0.1:50051";
/** Exit code: could not start, or failed while running. */
export const EXIT_FAILURE = 1;
/** Exit code: bad usage (a flag, or a file or folder a flag names). */
export const EXIT_USAGE = 2;

/** A reason to stop before serving: printed as `grok-tools-server: error: <message>`. */
export class StartupError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.name = "StartupError";
    this.exitCode = exitCode;
  }
}

interface ServerFlags {
  config?: string;
  printConfig?: boolean;
  metricsListen?: string;
  shutdownGrace: number;
  listen: string;
  workspace: string;
  stateDir?: string;
  allowPath?: string[];
  fsScope: "workspace" | "any";
  namespace?: string[];
  agent?: string;
  gitignore: "off" | "edits" | "all";
  authToken?: string;
  authTokenFile?: string;
  tlsCert?: string;
  tlsKey?: string;
  tlsClientCa?: string;
  insecure: boolean;
  logLevel: string;
  liveOutputBufferBytes?: number;
  maxSessions: number;
  maxCallsPerSession: number;
  sessionIdleTimeoutMs: number;
  maxMessageBytes: number;
  keepaliveTimeMs: number;
  keepaliveTimeoutMs: number;
  maxConnectionAgeMs: number;
  maxConnectionAgeGraceMs: number;
  callResultsMaxEntries: number;
  callResultsMaxAgeMs: number;
  stateLock: "workspace" | "session";
}

/** Commander parser of a whole-number flag (a bad value is a usage error naming the value). */
function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`expected a whole number, got '${value}'`);
  return Number(value);
}

/**
 * Parses argv and runs the server until a signal stops it. Resolves once serving (or once
 * --help/--version printed); throws {@link StartupError} when it cannot start.
 */
export async function main(argv: string[]): Promise<void> {
  // Signal handlers come first: a supervisor may send SIGTERM the moment it reads the listening
  // line (or earlier), and a signal without a handler would kill the process uncleanly.
  const stopper = new Stopper();

  const program = new Command()
    .name("grok-tools-server")
    .description("Serve the Grok tools runtime (xai.grok.tools.v1.GrokToolsService) over gRPC.")
    .version(serverVersion, "-V, --version")
    .option("--config <file>", "read settings from a JSON or YAML file whose keys are these flags' names (flags and GROK_TOOLS_* variables win)")
    .option("--print-config", "print the resulting settings (secrets masked) with where each came from, and exit")
    .option("--listen <address>", "HOST:PORT or unix:PATH (port 0 picks a free port)", DEFAULT_LISTEN)
    .option("--workspace <dir>", "workspace folder the tools work in", process.cwd())
    .option("--state-dir <dir>", "root of the state folders, one per workspace (default: $XDG_STATE_HOME/grok-tools)")
    .option("--allow-path <dir...>", "extra folders file tools may reach besides the workspace")
    .addOption(new Option("--fs-scope <scope>", "path confinement of file tools").choices(["workspace", "any"]).default("workspace"))
    .option("--namespace <package...>", "extra tool namespace packages to load")
    .addOption(
      new Option("--gitignore <mode>", "honour .gitignore in file tools: off, edits (search_replace), all (read_file too)")
        .choices(["off", "edits", "all"])
        .default("off"),
    )
    .option("--agent <file>", "agent definition (JSON, or Markdown with front matter) for the agent RPCs")
    .option("--auth-token-file <path>", "read the bearer token from a file, or from stdin with '-' (preferred: never visible to other processes)")
    .option("--auth-token <token>", `require 'authorization: Bearer <token>' (or ${AUTH_TOKEN_ENV})`)
    .option("--tls-cert <file>", "TLS certificate chain (PEM)")
    .option("--tls-key <file>", "TLS private key (PEM)")
    .option("--tls-client-ca <file>", "require client certificates signed by this CA (mTLS)")
    .option("--insecure", "allow a non-loopback address without a token or TLS", false)
    .addOption(
      new Option("--live-output-buffer-bytes <n>", "live output queued per streaming call for a slow client before head+tail dropping").argParser(
        parseBufferBytes,
      ),
    )
    .option(
      "--max-sessions <n>",
      "routed sessions (x-grok-session-id) held at once; more are refused with RESOURCE_EXHAUSTED",
      wholeNumber,
      DEFAULT_MAX_SESSIONS,
    )
    .option(
      "--max-calls-per-session <n>",
      "calls of one session running at once; more are refused with RESOURCE_EXHAUSTED",
      wholeNumber,
      DEFAULT_MAX_CALLS_PER_SESSION,
    )
    .option(
      "--session-idle-timeout-ms <ms>",
      "evict a routed session after this long without a call (state flushed first; 0: never)",
      wholeNumber,
      DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    )
    .option("--max-message-bytes <n>", "largest gRPC message received or sent", wholeNumber, MAX_MESSAGE_BYTES)
    .option("--keepalive-time-ms <ms>", "interval of HTTP/2 keepalive pings", wholeNumber, DEFAULT_KEEPALIVE_TIME_MS)
    .option("--keepalive-timeout-ms <ms>", "close a connection whose keepalive ping is not answered in this time", wholeNumber, DEFAULT_KEEPALIVE_TIMEOUT_MS)
    .option("--max-connection-age-ms <ms>", "close connections once this old, after a grace for running calls (0: never)", wholeNumber, 0)
    .option("--max-connection-age-grace-ms <ms>", "grace for running calls after --max-connection-age-ms", wholeNumber, DEFAULT_MAX_CONNECTION_AGE_GRACE_MS)
    .option(
      "--call-results-max-entries <n>",
      "answers of calls with side effects kept per session to replay to a repeated call_id (0: off)",
      wholeNumber,
      DEFAULT_CALL_RESULTS_MAX_ENTRIES,
    )
    .option("--call-results-max-age-ms <ms>", "how long such an answer can be replayed", wholeNumber, DEFAULT_CALL_RESULTS_MAX_AGE_MS)
    .addOption(
      new Option("--state-lock <scope>", "lock the state folder per workspace (one server) or per session (servers sharing a state dir behind a load balancer)")
        .choices(["workspace", "session"])
        .default("workspace"),
    )
    .addOption(new Option("--log-level <level>", "log level").choices(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"))
    .option(
      "--shutdown-grace <ms>",
      "on SIGTERM, how long running calls may finish before they are cut and their commands killed",
      parseMilliseconds,
      SHUTDOWN_GRACE_MS,
    )
    .option("--metrics-listen <address>", "serve Prometheus metrics over HTTP at HOST:PORT/metrics (off by default)")
    .exitOverride()
    .showHelpAfterError("(run grok-tools-server --help for the flags)");
  try {
    program.parse(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander printed the message (or the help / version) already.
      stopper.dispose();
      if (error.exitCode === 0) return;
      throw new StartupError("", EXIT_USAGE);
    }
    throw error;
  }
  // Flags > GROK_TOOLS_* variables > --config file > defaults, for every flag of the table above.
  let settings: Setting[];
  try {
    const configFile =
      program.getOptionValueSource("config") === "cli" ? (program.opts<ServerFlags>().config as string) : process.env[envName("config")] || undefined;
    settings = applyEnvAndFile(program, {
      env: process.env,
      ...(configFile ? { file: loadConfigFile(configFile) } : {}),
      actionFlags: ["version", "print-config"],
      notInFile: ["config"],
    });
  } catch (error) {
    stopper.dispose();
    if (error instanceof ConfigError) throw new StartupError(error.message, EXIT_USAGE);
    throw error;
  }
  const opts = program.opts<ServerFlags>();
  if (opts.printConfig) {
    stopper.dispose();
    process.stdout.write(formatSettings(settings));
    return;
  }
  const log = pino({ level: opts.logLevel, base: { service: "grok-tools-server" } }, pino.destination(2)) as unknown as Logger;
  stopper.log = log;
  watchLauncher((parent) => {
    log.warn({ parent }, "the npm process that started this server is gone (npm passes SIGTERM to the shell in between, not to the server); shutting down");
    stopper.request("SIGTERM");
  });
  // grpc-js prints its own "E No address added ..." lines; the failure itself is reported below.
  setGrpcLogger({ error: (message?: unknown, ...rest: unknown[]) => log.debug({ grpc: format(message, ...rest) }, "grpc-js") });

  const usage = (message: string): never => {
    throw new StartupError(message, EXIT_USAGE);
  };
  let authToken: string | undefined;
  try {
    // The variable is read (and then wiped) by readAuthToken itself, which knows it came from there.
    const tokenFromEnv = settings.find((s) => s.attribute === "authToken")?.source === "env";
    authToken = readAuthToken(
      {
        ...(tokenFromEnv || opts.authToken === undefined ? {} : { authToken: opts.authToken }),
        ...(opts.authTokenFile === undefined ? {} : { authTokenFile: opts.authTokenFile }),
      },
      process.env,
    )?.token;
  } catch (error) {
    usage((error as Error).message);
  }
  // The token must not leak into the environment of commands nor show in ps / /proc.
  if (authToken !== undefined) {
    const hidden = scrubAuthToken(authToken);
    if (!hidden.argv || !hidden.environ) {
      log.warn(
        { argvMasked: hidden.argv, environMasked: hidden.environ },
        `the token may stay visible in /proc/${process.pid}; pass it with --auth-token-file`,
      );
    }
  } else {
    delete process.env[AUTH_TOKEN_ENV];
  }

  try {
    parseListenAddress(opts.listen);
  } catch (error) {
    usage((error as Error).message);
  }
  if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined)) usage("--tls-cert and --tls-key go together");
  const tls =
    opts.tlsCert && opts.tlsKey
      ? {
          cert: readFlagFile("--tls-cert", opts.tlsCert),
          key: readFlagFile("--tls-key", opts.tlsKey),
          ...(opts.tlsClientCa ? { ca: readFlagFile("--tls-client-ca", opts.tlsClientCa) } : {}),
        }
      : undefined;
  if (tls) checkTlsMaterial(tls, opts);
  if (!isLoopbackAddress(opts.listen) && !authToken && !tls && !opts.insecure) {
    usage(`refusing to listen on ${opts.listen} without --auth-token-file (or --auth-token) or TLS; pass --insecure to do it anyway`);
  }

  if (opts.metricsListen !== undefined) {
    try {
      parseListenAddress(opts.metricsListen);
    } catch (error) {
      usage((error as Error).message.replace(/^--listen/, "--metrics-listen"));
    }
  }
  let server: ToolsServer | undefined;
  const metrics = opts.metricsListen === undefined ? undefined : createPrometheusMetrics({ runningTasks: () => server?.runningTasks() ?? 0 });

  const workspace = path.resolve(opts.workspace);
  let namespaces;
  try {
    namespaces = await loadNamespaces(opts.namespace ?? [], process.cwd(), { taken: BUILTIN_NAMESPACES.map((ns) => ns.name) });
  } catch (error) {
    usage((error as Error).message);
  }
  let agent;
  try {
    agent = opts.agent ? await loadAgentDefinition(path.resolve(opts.agent)) : undefined;
  } catch (error) {
    usage(`--agent ${opts.agent}: ${(error as Error).message}`);
  }
  try {
    server = createToolsServer({
      ...(metrics ? { metrics } : {}),
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
      ...(opts.liveOutputBufferBytes === undefined ? {} : { liveOutputBufferBytes: opts.liveOutputBufferBytes }),
      maxSessions: opts.maxSessions,
      maxCallsPerSession: opts.maxCallsPerSession,
      sessionIdleTimeoutMs: opts.sessionIdleTimeoutMs,
      maxMessageBytes: opts.maxMessageBytes,
      keepaliveTimeMs: opts.keepaliveTimeMs,
      keepaliveTimeoutMs: opts.keepaliveTimeoutMs,
      maxConnectionAgeMs: opts.maxConnectionAgeMs,
      maxConnectionAgeGraceMs: opts.maxConnectionAgeGraceMs,
      callResultsMaxEntries: opts.callResultsMaxEntries,
      callResultsMaxAgeMs: opts.callResultsMaxAgeMs,
      stateLock: opts.stateLock,
    });
  } catch (error) {
    if (error instanceof ServerSetupError || error instanceof NamespaceRegistrationError) usage(error.message);
    if (error instanceof StateFolderInUseError) throw new StartupError(error.message, EXIT_FAILURE);
    if (error instanceof Error && /certificate|key|PEM/i.test(error.message) && tls) usage(`cannot use the TLS files: ${error.message}`);
    throw error;
  }
  stopper.server = server;
  stopper.graceMs = opts.shutdownGrace;
  let address: string;
  try {
    address = await server.listen(opts.listen);
  } catch (error) {
    await server.shutdown(0);
    throw new StartupError(describeListenFailure(opts.listen, error), EXIT_FAILURE);
  }
  let metricsAddress: string | undefined;
  if (metrics && opts.metricsListen !== undefined) {
    try {
      metricsAddress = (await serveMetrics(opts.metricsListen, metrics.registry, log)).address;
    } catch (error) {
      await server.shutdown(0);
      throw new StartupError(
        describeListenFailure(opts.metricsListen, error)
          .replace(/\(port 0 picks a free port\)/, "")
          .replace("--listen", "--metrics-listen"),
        EXIT_FAILURE,
      );
    }
  }
  if (stopper.requested) return stopper.stopNow();
  log.info(
    {
      address,
      workspace,
      stateDir: server.session.stateDir,
      fsScope: opts.fsScope,
      ...(metricsAddress ? { metrics: `http://${metricsAddress}/metrics` } : {}),
    },
    "grok-tools-server ready",
  );
  process.stdout.write(`${JSON.stringify({ event: "listening", address, ...(metricsAddress ? { metrics: metricsAddress } : {}) })}\n`);
  stopper.serving = true;
  // Decision D4: say so when commands cannot get their own PID namespace. Probed without blocking
  // and only after the listening line (issue #18): the probes cost 0.2-0.35 s on a loaded machine
  // when awaited, and even started in the background their spawns took ~15 ms of this thread before
  // the line. A command that comes before the probe has answered probes synchronously, once.
  void detectProcessIsolationAsync().then((isolation) => {
    if (isolation.mode === "pid-namespace") log.info({ isolation: isolation.mode }, isolation.detail);
    else log.warn({ isolation: isolation.mode }, isolation.detail);
  });
}

/** `--live-output-buffer-bytes`: a whole number of bytes, at least 64 KiB (room for a head, a marker and a tail). */
function parseBufferBytes(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 65536) throw new InvalidArgumentError("expected a whole number of bytes, at least 65536");
  return n;
}

/**
 * Refuses certificate or key files that are not PEM, or a key that does not belong to the
 * certificate, before binding (grpc-js would only say "DECODER routines::unsupported" at listen).
 */
function checkTlsMaterial(tls: { cert: Buffer; key: Buffer; ca?: Buffer }, opts: ServerFlags): void {
  const fail = (flag: string, file: string | undefined, what: string): never => {
    throw new StartupError(`${flag} ${file}: ${what}`, EXIT_USAGE);
  };
  let cert: X509Certificate | undefined;
  try {
    cert = new X509Certificate(tls.cert);
  } catch {
    fail("--tls-cert", opts.tlsCert, "not a PEM certificate");
  }
  let key;
  try {
    key = createPrivateKey(tls.key);
  } catch {
    fail("--tls-key", opts.tlsKey, "not a PEM private key (or it is encrypted)");
  }
  if (!cert!.checkPrivateKey(key!)) fail("--tls-key", opts.tlsKey, `this key does not belong to the certificate of --tls-cert ${opts.tlsCert}`);
  if (tls.ca) {
    try {
      new X509Certificate(tls.ca);
    } catch {
      fail("--tls-client-ca", opts.tlsClientCa, "not a PEM certificate");
    }
  }
}

function parseMilliseconds(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value)) throw new InvalidArgumentError("expected a whole number of milliseconds, like 5000.");
  return value;
}

function readFlagFile(flag: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new StartupError(`${flag} ${file}: ${(error as Error).message.replace(/^\w+: /, "")}`, EXIT_USAGE);
  }
}

/**
 * SIGTERM / SIGINT from the first moment: before the server exists the process just exits 0;
 * while it starts the stop waits for the start to settle; once serving it shuts down gracefully.
 */
class Stopper {
  log: Logger | undefined;
  server: ToolsServer | undefined;
  graceMs = SHUTDOWN_GRACE_MS;
  serving = false;
  requested: NodeJS.Signals | undefined;
  #stopping = false;
  readonly #onSignal = (signal: NodeJS.Signals) => this.request(signal);

  constructor() {
    process.on("SIGTERM", this.#onSignal);
    process.on("SIGINT", this.#onSignal);
  }

  dispose(): void {
    process.removeListener("SIGTERM", this.#onSignal);
    process.removeListener("SIGINT", this.#onSignal);
  }

  /** A stop as if by `signal`: from a signal handler, or when the launcher is gone. */
  request(signal: NodeJS.Signals): void {
    if (this.requested) return;
    this.requested = signal;
    this.log?.info({ signal }, "shutting down");
    if (this.serving) this.stopNow();
    else if (!this.server) this.exitNow();
    // Else the start is under way (listen); main() stops once it settles.
  }

  /** Nothing holds resources yet. */
  exitNow(): void {
    process.exit(0);
  }

  stopNow(): void {
    if (this.#stopping) return;
    this.#stopping = true;
    this.server!.shutdown(this.graceMs).then(
      () => process.exit(0),
      (error: unknown) => {
        this.log?.error({ err: error }, "shutdown failed");
        process.exit(EXIT_FAILURE);
      },
    );
  }
}
