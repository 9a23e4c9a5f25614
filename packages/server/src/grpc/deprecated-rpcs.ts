/**
 * The deprecated RPCs (spec §10): pre-finalize configuration, reminder and truncation switches,
 * and the agent RPCs, mapped onto the session's methods. The behaviour lives in the runtime;
 * here only wire mapping and statuses: a change the session no longer allows (after finalize)
 * is FAILED_PRECONDITION, an unknown tool in GetToolOptions is NOT_FOUND.
 */
import { status as GrpcStatus, type Metadata } from "@grpc/grpc-js";
import type { GrokToolsServiceServer } from "@grok-tools/proto";
import { type Logger } from "@grok-tools/runtime";
import { type Session } from "@grok-tools/runtime/host";
import { grpcError, unaryHandler } from "./unary-handler.js";
import { fromTruncationConfig, toTruncationConfig } from "./to-proto.js";

/** What the handlers need from the server. */
export interface DeprecatedRpcContext {
  sessionFor(metadata: Metadata): Session;
  /** Runs `fn` in the session the call names (see ToolsServiceContext.useSession). */
  useSession?<T>(metadata: Metadata, fn: (session: Session) => Promise<T> | T): Promise<T> | T;
  /** Throws a ServiceError when the call is not allowed (auth, shutting down). */
  admit(metadata: Metadata): void;
  log: Logger;
}

type DeprecatedRpc =
  | "enableTool"
  | "disableTool"
  | "setToolOptions"
  | "getToolOptions"
  | "resetToolOptions"
  | "setToolOverride"
  | "clearToolOverride"
  | "setSystemReminders"
  | "getSystemReminders"
  | "setTruncationConfig"
  | "getTruncationConfig"
  | "getSystemPrompt"
  | "getAgentInfo"
  | "getCompletionState"
  | "resetCompletionState"
  | "finalizeAgent";

function handler<Req, Res>(ctx: DeprecatedRpcContext, name: string, fn: (req: Req, session: Session) => Promise<Res> | Res) {
  return unaryHandler<Req, Res>(ctx, name, (req, call) =>
    ctx.useSession ? ctx.useSession(call.metadata, (session) => fn(req, session)) : fn(req, ctx.sessionFor(call.metadata)),
  );
}

/** A successful options change answers once it is on disk; a failed write turns it into `success=false` saying so. */
async function saved<Res extends { success: boolean; message: string }>(session: Session, result: Res): Promise<Res> {
  if (!result.success) return result;
  try {
    await session.commitState();
    return result;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ...result,
      success: false,
      message: `The options were applied, but the session state could not be saved: ${reason}. They hold until the server restarts.`,
    };
  }
}

/** Handlers of every deprecated RPC, for `ToolsServiceContext.deprecated`. */
export function createDeprecatedHandlers(ctx: DeprecatedRpcContext): Pick<GrokToolsServiceServer, DeprecatedRpc> {
  return {
    enableTool: handler(ctx, "EnableTool", (req, session) => session.configuration.enableTool(req.toolName)),
    disableTool: handler(ctx, "DisableTool", (req, session) => session.configuration.disableTool(req.toolName)),
    setToolOptions: handler(ctx, "SetToolOptions", (req, session) =>
      saved(session, session.configuration.setToolOptions(req.toolName, req.optionsJson, req.replace)),
    ),
    getToolOptions: handler(ctx, "GetToolOptions", (req, session) => {
      const info = session.configuration.getToolOptions(req.toolName, req.includeSchema);
      if (!info) throw grpcError(GrpcStatus.NOT_FOUND, `Tool not found: ${req.toolName}`);
      return info;
    }),
    resetToolOptions: handler(ctx, "ResetToolOptions", (req, session) => saved(session, session.configuration.resetToolOptions(req.toolName, req.keysToReset))),
    setToolOverride: handler(ctx, "SetToolOverride", (req, session) =>
      session.configuration.setToolOverride(req.toolName, req.toolNameForModel, { ...req.paramNameOverridesForModel }),
    ),
    clearToolOverride: handler(ctx, "ClearToolOverride", (req, session) => session.configuration.clearToolOverride(req.toolName)),
    setSystemReminders: handler(ctx, "SetSystemReminders", (req, session) => session.configuration.setSystemReminders(req.enabled)),
    getSystemReminders: handler(ctx, "GetSystemReminders", (_req, session) => ({ enabled: session.configuration.getSystemReminders() })),
    setTruncationConfig: handler(ctx, "SetTruncationConfig", (req, session) => {
      session.configuration.setTruncationConfig(fromTruncationConfig(req.config) ?? {});
      return {};
    }),
    getTruncationConfig: handler(ctx, "GetTruncationConfig", (_req, session) => ({ config: toTruncationConfig(session.configuration.getTruncationConfig()) })),
    getSystemPrompt: handler(ctx, "GetSystemPrompt", (req, session) => session.agent.getSystemPrompt(req.variant === "" ? "full" : req.variant)),
    getAgentInfo: handler(ctx, "GetAgentInfo", (_req, session) => {
      const info = session.agent.getAgentInfo();
      if (!info) return { name: "", description: "", tools: [], disallowedTools: [], permissionMode: "", outputFormat: "", toolConfig: {} };
      return {
        name: info.name,
        description: info.description,
        tools: info.tools,
        disallowedTools: info.disallowedTools,
        permissionMode: info.permissionMode,
        outputFormat: info.outputFormat,
        ...(info.completionRequirement ? { completionRequirement: info.completionRequirement } : {}),
        toolConfig: Object.fromEntries(Object.entries(info.toolConfig).map(([tool, config]) => [tool, config.retry ? { retry: { ...config.retry } } : {}])),
      };
    }),
    getCompletionState: handler(ctx, "GetCompletionState", (_req, session) => session.agent.getCompletionState()),
    resetCompletionState: handler(ctx, "ResetCompletionState", (_req, session) => {
      session.agent.resetCompletionState();
      return {};
    }),
    finalizeAgent: handler(ctx, "FinalizeAgent", async (_req, session) => {
      const result = await session.agent.finalizeAgent();
      if (!result.success) ctx.log.info({ message: result.message }, "FinalizeAgent rejected");
      return { success: result.success, systemPrompt: result.systemPrompt };
    }),
  };
}
