/**
 * createToolsServer: a grpc-js server for GrokToolsService with a default session and one session
 * per `x-grok-session-id` (SessionRegistry), bearer-token auth, connection limits, listening on TCP
 * or a unix socket, and a graceful shutdown. It owns the workspace's state folder (locked) from
 * creation to shutdown.
 */
import { ServerCredentials, status as GrpcStatus, type Metadata } from "@grpc/grpc-js";
import { timingSafeEqual, createHash, randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { GrokToolsServiceService, MAX_MESSAGE_BYTES } from "@grok-tools/proto";
import { Session, defaultStateDir, detectSearchSandbox, type AgentDefinition, type FinalizeInput } from "@grok-tools/runtime/host";
import { silentLogger } from "@grok-tools/runtime/helpers";
import { subagentHostService, type Logger, type NamespaceDefinition } from "@grok-tools/runtime";
import { GITIGNORE_POLICY, grokBuild, grokBuildConcise } from "@grok-tools/tools-grokbuild";
import { codex } from "@grok-tools/tools-codex";
import { openCode } from "@grok-tools/tools-opencode";
import { grokBuildHashline } from "@grok-tools/tools-hashline";
import { taskManagerService } from "@grok-tools/tasks";
import { createToolsService } from "./grpc/tools-service.js";
import { buildRegistry } from "./namespace-registry.js";
import { grpcError } from "./grpc/unary-handler.js";
import { dialCallback, type CallbackConnection } from "./grpc/callback-dial.js";
import { SubagentDepths } from "./sessions/subagent-depths.js";
import { addHealthAndReflection } from "./grpc/health-and-reflection.js";
import { ToolsGrpcServer } from "./grpc/request-decoding.js";
import { checkWorkspace, makeStateFolder, workspaceStateFolder } from "./state/state-folder.js";
import { acquireStateFolderLock, StateFolderInUseError } from "./state/state-folder-lock.js";
import { NO_METRICS, type ServerMetrics } from "./metrics/server-metrics.js";
import { SessionRegistry } from "./sessions/session-registry.js";
import { saveFinalize } from "./sessions/saved-finalize.js";

/**
 * The namespaces every server has: the reference's built-in tool packs (spec §2.2). OpenCode and
 * GrokBuildHashline are vendor-style packages but ship with the server, as the reference ships them;
 * their tools do nothing until a finalize enables them.
 */
export const BUILTIN_NAMESPACES: readonly NamespaceDefinition[] = [grokBuild, grokBuildConcise, codex, openCode, grokBuildHashline];

/** Options of {@link createToolsServer}. */
export interface ToolsServerOptions {
  /** The workspace the session serves; must be an existing folder. */
  workspace: string;
  /**
   * Root of the state folders (default `$XDG_STATE_HOME/grok-tools`). The server keeps its state in
   * `<stateDir>/<workspace name>-<hash>/`, locked against a second server, with one folder per session.
   */
  stateDir?: string;
  /** Extra namespaces (vendor packages), registered after the built-in ones. */
  namespaces?: readonly NamespaceDefinition[];
  /** Replaces the built-in namespaces entirely (tests). */
  builtinNamespaces?: readonly NamespaceDefinition[];
  allowPaths?: readonly string[];
  fsScope?: "workspace" | "any";
  /** Required as `authorization: Bearer <token>` on every call when set. */
  authToken?: string;
  /** PEM material for TLS; `ca` turns on client certificate checks (mTLS). */
  tls?: { cert: Buffer; key: Buffer; ca?: Buffer };
  log?: Logger;
  version?: string;
  /**
   * Whether file tools honour .gitignore (the reference's host-seeded GitignoreFilter and
   * RespectGitignore): `off` (default), `edits` (search_replace refuses ignored files),
   * `all` (read_file refuses them too).
   */
  gitignore?: "off" | "edits" | "all";
  /** An agent definition: its tools become the pending toolset, its prompt feeds the agent RPCs. */
  agent?: AgentDefinition;
  /**
   * Largest message sent or received (default {@link MAX_MESSAGE_BYTES}, 64 MiB, which is also the
   * client's default receive limit). An ExecuteTool result that would not fit answers an error instead.
   */
  maxMessageBytes?: number;
  /**
   * Live output (issue 20) queued per ExecuteToolStream call while the client reads slowly; past it
   * the middle is dropped with a marker (default 8 MiB).
   */
  liveOutputBufferBytes?: number;
  /** Where calls, sessions and evictions are counted (default: nowhere); see createPrometheusMetrics. */
  metrics?: ServerMetrics;
  /** Routed sessions (`x-grok-session-id`) held at once; a new one past it is RESOURCE_EXHAUSTED (default 256). */
  maxSessions?: number;
  /** Calls of one routed session running at once; one more is RESOURCE_EXHAUSTED (default 256; the default session has no limit). */
  maxCallsPerSession?: number;
  /** A routed session with no call for this long is evicted, state flushed first (default 30 min; 0: never). */
  sessionIdleTimeoutMs?: number;
  /** Interval of HTTP/2 keepalive pings on idle connections (default 60 000). */
  keepaliveTimeMs?: number;
  /** How long a keepalive ping may go unanswered before the connection is closed (default 20 000). */
  keepaliveTimeoutMs?: number;
  /** Connections are closed (after a grace for running calls) once this old; 0: never (default). */
  maxConnectionAgeMs?: number;
  /** Grace after `maxConnectionAgeMs` for running calls (default 30 000). */
  maxConnectionAgeGraceMs?: number;
  /**
   * Answers of calls with side effects kept per session for replay to a repeated call_id
   * (default 256; 0 turns replays off).
   */
  callResultsMaxEntries?: number;
  /** How long such an answer can be replayed (default 1 hour). */
  callResultsMaxAgeMs?: number;
  /**
   * What the state-folder lock covers: `workspace` (default) refuses a second server on the same
   * workspace and state dir; `session` lets several servers share them (a load balancer with session
   * affinity in front) and locks each routed session's folder while a server holds that session:
   * a call for a session another live server holds is `UNAVAILABLE`; a dead holder's lock is taken over.
   */
  stateLock?: "workspace" | "session";
}

/** Default of `keepaliveTimeMs`. */
export const DEFAULT_KEEPALIVE_TIME_MS = 60_000;
/** Default of `keepaliveTimeoutMs`. */
export const DEFAULT_KEEPALIVE_TIMEOUT_MS = 20_000;
/** Default of `maxConnectionAgeGraceMs`. */
export const DEFAULT_MAX_CONNECTION_AGE_GRACE_MS = 30_000;

/** A running (or ready to run) tools server. */
export interface ToolsServer {
  /**
   * Removes the temporary files a killed predecessor left, then binds `127.0.0.1:0`, `host:port`
   * or `unix:/path`; resolves to the bound address.
   */
  listen(address: string): Promise<string>;
  /** Stops taking calls, waits for running ones up to `graceMs`, then forces. */
  shutdown(graceMs?: number): Promise<void>;
  /** The default session (calls without `x-grok-session-id`). */
  readonly session: Session;
  /** Commands running now over all sessions (the running-tasks metric). */
  runningTasks(): number;
  /** Every routed session. */
  readonly sessions: SessionRegistry;
}

/**
 * This process's generated session id: the callback's `session_id` (and children's
 * `parent_session_id`) when finalize names none (spec §7.5).
 */
export const PROCESS_SESSION_ID = randomUUID();

/** Grace period of a shutdown before calls are cut. */
export const SHUTDOWN_GRACE_MS = 5000;

/**
 * Creates a server for one workspace. Throws a `ServerSetupError` when the workspace is not an
 * existing folder or the state folder cannot be written, and a `StateFolderInUseError` when another
 * live server holds the workspace's state folder, and a `NamespaceRegistrationError` when a vendor
 * namespace is malformed or its name is taken.
 */
export function createToolsServer(options: ToolsServerOptions): ToolsServer {
  const log = options.log ?? silentLogger;
  const workspaceRealPath = checkWorkspace(options.workspace);
  const stateRoot = options.stateDir ?? defaultStateDir();
  const stateFolder = workspaceStateFolder(stateRoot, workspaceRealPath);
  const registry = buildRegistry(options.builtinNamespaces ?? BUILTIN_NAMESPACES, options.namespaces ?? []);
  const subagentDepths = new SubagentDepths();
  const makeSession = (id?: string, folderName?: string): Session => {
    const made = new Session({
      registry,
      workspace: options.workspace,
      stateDir: stateFolder,
      ...(id === undefined ? {} : { id }),
      ...(folderName === undefined ? {} : { folderName }),
      ...(options.allowPaths ? { allowPaths: options.allowPaths } : {}),
      fsScope: options.fsScope ?? "workspace",
      log,
      ...(options.version ? { runtimeVersion: options.version } : {}),
      ...(options.agent ? { agent: options.agent } : {}),
      callResults: {
        ...(options.callResultsMaxEntries === undefined ? {} : { maxEntries: options.callResultsMaxEntries }),
        ...(options.callResultsMaxAgeMs === undefined ? {} : { maxAgeMs: options.callResultsMaxAgeMs }),
      },
    });
    const gitignore = made.service(GITIGNORE_POLICY);
    gitignore.filterEnabled = (options.gitignore ?? "off") !== "off";
    gitignore.respectGitignore = options.gitignore === "all" ? true : undefined;
    // A routed session named by the id of a child this server is running is that child: one level deeper.
    if (id !== undefined) subagentDepths.applyTo(made);
    return made;
  };
  const session = makeSession();
  const callbacks = new Map<Session, CallbackConnection>();
  const metrics = options.metrics ?? NO_METRICS;
  // Routed sessions alive now, for the sessions and running-tasks metrics (the default session counts as one).
  const liveSessions = new Set<Session>();
  let evictionsSeen = 0;
  metrics.setSessions(1);
  const sessions: SessionRegistry = new SessionRegistry({
    defaultSession: session,
    createSession: (id, folderName) => makeSession(id, folderName),
    // Counted once held (its lock taken), not when made: a session held by another server is refused and dropped.
    onOpened: (opened) => {
      liveSessions.add(opened);
      metrics.setSessions(1 + liveSessions.size);
    },
    limits: {
      ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }),
      ...(options.maxCallsPerSession === undefined ? {} : { maxCallsPerSession: options.maxCallsPerSession }),
      ...(options.sessionIdleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.sessionIdleTimeoutMs }),
    },
    log,
    ...(options.stateLock === "session" ? { lockSession: (opened: Session) => lockSessionFolder(opened, stateRoot, workspaceRealPath) } : {}),
    onClosed: (closed) => {
      liveSessions.delete(closed);
      metrics.setSessions(1 + liveSessions.size);
      for (; evictionsSeen < sessions.evictions; evictionsSeen++) metrics.sessionEvicted("idle");
      callbacks.get(closed)?.close();
      callbacks.delete(closed);
    },
  });
  let shuttingDown = false;
  const expectedToken = options.authToken ? digest(`Bearer ${options.authToken}`) : undefined;

  const admit = (metadata: Metadata): void => {
    if (shuttingDown) throw grpcError(GrpcStatus.UNAVAILABLE, "The server is shutting down");
    if (!expectedToken) return;
    const header = metadata.get("authorization")[0];
    // Compare digests so that the comparison is constant-time whatever the header's length.
    if (typeof header !== "string" || !timingSafeEqual(digest(header), expectedToken)) {
      throw grpcError(GrpcStatus.UNAUTHENTICATED, "Missing or invalid authorization: send 'authorization: Bearer <token>'");
    }
  };

  const maxMessageBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  const maxConnectionAgeMs = options.maxConnectionAgeMs ?? 0;
  const server = new ToolsGrpcServer({
    "grpc.max_receive_message_length": maxMessageBytes,
    "grpc.max_send_message_length": maxMessageBytes,
    "grpc.keepalive_time_ms": options.keepaliveTimeMs ?? DEFAULT_KEEPALIVE_TIME_MS,
    "grpc.keepalive_timeout_ms": options.keepaliveTimeoutMs ?? DEFAULT_KEEPALIVE_TIMEOUT_MS,
    ...(maxConnectionAgeMs > 0
      ? {
          "grpc.max_connection_age_ms": maxConnectionAgeMs,
          "grpc.max_connection_age_grace_ms": options.maxConnectionAgeGraceMs ?? DEFAULT_MAX_CONNECTION_AGE_GRACE_MS,
        }
      : {}),
  });
  const connectCallback = async (target: Session, address: string, secret: string | undefined, sessionId: string | undefined) => {
    const callbackSessionId = sessionId || PROCESS_SESSION_ID;
    const subagentsEnabled = target.toolset?.entries().some((entry) => entry.kind === "task") ?? false;
    const dialed = await dialCallback(address, secret, log, { subagentsEnabled });
    if ("send" in dialed) {
      callbacks.get(target)?.close();
      callbacks.set(target, dialed);
      target.setNotificationSink((_sessionId, notification) => dialed.send(callbackSessionId, notification));
      // The task tool reaches the host through the session's subagent slot (no server import).
      if (subagentsEnabled)
        target.service(subagentHostService).connect(
          subagentDepths.track(dialed.subagents, target, (id) => sessions.peek(id)),
          callbackSessionId,
        );
      log.info({ address, session: target.id, callbackSessionId, subagents: subagentsEnabled }, "callback connected");
    }
    return dialed.status;
  };
  // A routed session keeps its finalize request, so that it warm-starts after eviction or a restart.
  const onFinalized = async (finalized: Session, input: FinalizeInput, routedId: string | undefined) => {
    if (routedId === undefined) return;
    await saveFinalize(finalized.sessionDir, input).catch((error: unknown) =>
      log.error({ err: error, session: finalized.id }, "cannot save the finalize request; the session will not warm-start after eviction"),
    );
  };
  server.addService(
    GrokToolsServiceService,
    createToolsService({
      sessionFor: () => session,
      useSession: (metadata, fn) => sessions.runNow(metadata, fn),
      onFinalized,
      admit,
      log,
      metrics,
      connectCallback,
      maxMessageBytes,
      ...(options.liveOutputBufferBytes === undefined ? {} : { liveOutputBufferBytes: options.liveOutputBufferBytes }),
    }),
  );
  // Standard tooling (grpc_health_probe, grpcurl, Postman) works without our proto file (decision D5).
  const health = addHealthAndReflection(server);

  const credentials = options.tls
    ? ServerCredentials.createSsl(options.tls.ca ?? null, [{ cert_chain: options.tls.cert, private_key: options.tls.key }], options.tls.ca !== undefined)
    : ServerCredentials.createInsecure();

  // Last, so that nothing after it can fail and leave the lock behind.
  makeStateFolder(stateFolder, stateRoot);
  const lock = options.stateLock === "session" ? undefined : acquireStateFolderLock(stateFolder, stateRoot, workspaceRealPath);
  return {
    session,
    runningTasks: () => [session, ...liveSessions].reduce((n, s) => n + (s.peekService(taskManagerService)?.runningCount ?? 0), 0),
    sessions,
    async listen(address) {
      // Temporaries a killed predecessor left beside the files it was replacing (issue #23 item 3).
      // With per-session locks the default session's temporaries may be another live server's writes in flight.
      if (options.stateLock !== "session")
        await session.tempJournal.recover(log).catch((error: unknown) => log.warn({ err: error }, "could not remove leftover temporary files"));
      const bound = await new Promise<string>((resolve, reject) => {
        server.bindAsync(address, credentials, (error, port) => {
          if (error) return reject(error);
          resolve(address.startsWith("unix:") ? address : address.replace(/:\d+$/, `:${port}`));
        });
      });
      // Probed once listening, after the caller's turn (the command prints its listening line there):
      // the probe's spawn took ~15 ms of this thread before the line (issue #18). A search that comes
      // first waits for the same probe.
      setImmediate(() => {
        void detectSearchSandbox().then((sandbox) => {
          const fields = { searchSandbox: sandbox.mode, searchSandboxPolicy: sandbox.policy };
          // Searches that could leave the workspace are worth a warning; with --fs-scope any nothing is confined.
          if (sandbox.mode === "none" && session.fsScope !== "any") log.warn(fields, sandbox.detail);
          else log.info(fields, sandbox.detail);
        });
      });
      return bound;
    },
    async shutdown(graceMs = SHUTDOWN_GRACE_MS) {
      shuttingDown = true;
      health.setServing(false);
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      await sessions.close();
      await session.close();
      for (const connection of callbacks.values()) connection.close();
      lock?.release();
    },
  };
}

/** Takes a routed session's folder lock; another live server holding it makes the call UNAVAILABLE. */
function lockSessionFolder(session: Session, stateRoot: string, workspace: string): () => void {
  try {
    mkdirSync(session.sessionDir, { recursive: true, mode: 0o700 });
    return acquireStateFolderLock(session.sessionDir, stateRoot, workspace).release;
  } catch (error) {
    if (error instanceof StateFolderInUseError) {
      throw grpcError(
        GrpcStatus.UNAVAILABLE,
        `Session '${session.id}' is held by another server (pid ${error.holder.pid} on ${error.holder.hostname}); route its calls there, or retry once that server is gone.`,
      );
    }
    throw error;
  }
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
