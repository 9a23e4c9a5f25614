/**
 * createToolsServer: a grpc-js server for GrokToolsService over one session, with
 * bearer-token auth, listening on TCP or a unix socket, and a graceful shutdown. It owns the
 * workspace's state folder (locked) from creation to shutdown.
 */
import { ServerCredentials, status as GrpcStatus, type Metadata } from "@grpc/grpc-js";
import { timingSafeEqual, createHash, randomUUID } from "node:crypto";
import { GrokToolsServiceService, MAX_MESSAGE_BYTES } from "@grok-tools/proto";
import { Session, ToolRegistry, defaultStateDir, detectSearchSandbox, type AgentDefinition } from "@grok-tools/runtime/host";
import { silentLogger } from "@grok-tools/runtime/helpers";
import { subagentHostService, type Logger, type NamespaceDefinition } from "@grok-tools/runtime";
import { GITIGNORE_POLICY, grokBuild, grokBuildConcise } from "@grok-tools/tools-grokbuild";
import { codex } from "@grok-tools/tools-codex";
import { createToolsService } from "./grpc/tools-service.js";
import { grpcError } from "./grpc/unary-handler.js";
import { dialCallback, type CallbackConnection } from "./grpc/callback-dial.js";
import { addHealthAndReflection } from "./grpc/health-and-reflection.js";
import { ToolsGrpcServer } from "./grpc/request-decoding.js";
import { checkWorkspace, makeStateFolder, workspaceStateFolder } from "./state/state-folder.js";
import { acquireStateFolderLock } from "./state/state-folder-lock.js";

/** The namespaces every server has. */
export const BUILTIN_NAMESPACES: readonly NamespaceDefinition[] = [grokBuild, grokBuildConcise, codex];

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
}

/** A running (or ready to run) tools server. */
export interface ToolsServer {
  /**
   * Removes the temporary files a killed predecessor left, then binds `127.0.0.1:0`, `host:port`
   * or `unix:/path`; resolves to the bound address.
   */
  listen(address: string): Promise<string>;
  /** Stops taking calls, waits for running ones up to `graceMs`, then forces. */
  shutdown(graceMs?: number): Promise<void>;
  readonly session: Session;
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
 * live server holds the workspace's state folder.
 */
export function createToolsServer(options: ToolsServerOptions): ToolsServer {
  const log = options.log ?? silentLogger;
  const workspaceRealPath = checkWorkspace(options.workspace);
  const stateRoot = options.stateDir ?? defaultStateDir();
  const stateFolder = workspaceStateFolder(stateRoot, workspaceRealPath);
  const registry = ToolRegistry.of([...(options.builtinNamespaces ?? BUILTIN_NAMESPACES), ...(options.namespaces ?? [])]);
  const session = new Session({
    registry,
    workspace: options.workspace,
    stateDir: stateFolder,
    ...(options.allowPaths ? { allowPaths: options.allowPaths } : {}),
    fsScope: options.fsScope ?? "workspace",
    log,
    ...(options.version ? { runtimeVersion: options.version } : {}),
    ...(options.agent ? { agent: options.agent } : {}),
  });
  const gitignore = session.service(GITIGNORE_POLICY);
  gitignore.filterEnabled = (options.gitignore ?? "off") !== "off";
  gitignore.respectGitignore = options.gitignore === "all" ? true : undefined;
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
  const server = new ToolsGrpcServer({ "grpc.max_receive_message_length": maxMessageBytes, "grpc.max_send_message_length": maxMessageBytes });
  let callback: CallbackConnection | undefined;
  const connectCallback = async (target: Session, address: string, secret: string | undefined, sessionId: string | undefined) => {
    const callbackSessionId = sessionId || PROCESS_SESSION_ID;
    const subagentsEnabled = target.toolset?.entries().some((entry) => entry.kind === "task") ?? false;
    const dialed = await dialCallback(address, secret, log, { subagentsEnabled });
    if ("send" in dialed) {
      callback?.close();
      callback = dialed;
      target.setNotificationSink((_sessionId, notification) => dialed.send(callbackSessionId, notification));
      // The task tool reaches the host through the session's subagent slot (no server import).
      if (subagentsEnabled) target.service(subagentHostService).connect(dialed.subagents, callbackSessionId);
      log.info({ address, session: target.id, callbackSessionId, subagents: subagentsEnabled }, "callback connected");
    }
    return dialed.status;
  };
  server.addService(GrokToolsServiceService, createToolsService({ sessionFor: () => session, admit, log, connectCallback, maxMessageBytes }));
  // Standard tooling (grpc_health_probe, grpcurl, Postman) works without our proto file (decision D5).
  const health = addHealthAndReflection(server);

  const credentials = options.tls
    ? ServerCredentials.createSsl(options.tls.ca ?? null, [{ cert_chain: options.tls.cert, private_key: options.tls.key }], options.tls.ca !== undefined)
    : ServerCredentials.createInsecure();

  // Last, so that nothing after it can fail and leave the lock behind.
  makeStateFolder(stateFolder, stateRoot);
  const lock = acquireStateFolderLock(stateFolder, stateRoot, workspaceRealPath);
  return {
    session,
    async listen(address) {
      // Temporaries a killed predecessor left beside the files it was replacing (issue #23 item 3).
      await session.tempJournal.recover(log).catch((error: unknown) => log.warn({ err: error }, "could not remove leftover temporary files"));
      void detectSearchSandbox().then((sandbox) => {
        const fields = { searchSandbox: sandbox.mode, searchSandboxPolicy: sandbox.policy };
        // Searches that could leave the workspace are worth a warning; with --fs-scope any nothing is confined.
        if (sandbox.mode === "none" && session.fsScope !== "any") log.warn(fields, sandbox.detail);
        else log.info(fields, sandbox.detail);
      });
      return new Promise((resolve, reject) => {
        server.bindAsync(address, credentials, (error, port) => {
          if (error) return reject(error);
          resolve(address.startsWith("unix:") ? address : address.replace(/:\d+$/, `:${port}`));
        });
      });
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
      await session.close();
      callback?.close();
      lock.release();
    },
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
