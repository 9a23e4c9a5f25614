/**
 * GrokBuild:task (spec §4.9): checks the request (depth, isolation, cwd, type, resume source),
 * resolves the child's tools and system prompt, starts it as a task of the session's task
 * manager through the subagent host, then returns at once (background) or waits for it up to
 * the foreground budget, after which it moves to the background and keeps running.
 */
import path from "node:path";
import { ErrorCode, ToolError, subagentHostService, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { TOOL_KINDS, uuidV7, wholeNumberFromEnv, type SubagentSpawnRequest } from "@grok-tools/runtime/helpers";
import { assertPathInsideRoots, expandTilde } from "@grok-tools/runtime/fs";
import { DEFAULT_MAX_CONCURRENT_SUBAGENTS, taskManagerService, type SubagentLimitBehavior, type SubagentSnapshot } from "@grok-tools/tasks";
import { parseCapabilityMode, type CapabilityMode } from "../shared/subagents/capability-mode.js";
import { resolveChildTools } from "../shared/subagents/child-tools.js";
import { directoryState } from "../shared/subagents/directory-check.js";
import { resumeFooter } from "../shared/subagents/subagent-output.js";
import { renderSubagentSystemPrompt } from "../shared/subagents/system-prompt.js";
import { loadSubagentTypes, type SubagentType } from "../shared/subagents/subagent-types.js";
import type { TaskInput, TaskOutput, TaskParams } from "./schema.js";

const KNOWN_KINDS: ReadonlySet<string> = new Set(TOOL_KINDS);

function invalid(message: string, suggestion?: string, details?: Record<string, unknown>): ToolError {
  return new ToolError(ErrorCode.INVALID_INPUT, message, { ...(suggestion ? { suggestion } : {}), ...(details ? { details } : {}) });
}

/** `GROK_MAX_CONCURRENT_SUBAGENTS`, else 32. */
function maxConcurrent(params: TaskParams): number {
  if (params.max_concurrent !== null) return params.max_concurrent;
  return wholeNumberFromEnv("GROK_MAX_CONCURRENT_SUBAGENTS", DEFAULT_MAX_CONCURRENT_SUBAGENTS, 1);
}

/** `GROK_SUBAGENT_LIMIT_BEHAVIOR` (`queue` | `fail`), else queue. */
function limitBehavior(params: TaskParams): SubagentLimitBehavior {
  if (params.limit_behavior !== null) return params.limit_behavior;
  return process.env.GROK_SUBAGENT_LIMIT_BEHAVIOR?.trim().toLowerCase() === "fail" ? "fail" : "queue";
}

async function checkCwd(input: TaskInput, ctx: ToolContext<TaskParams>, resuming: boolean): Promise<string | undefined> {
  if (input.cwd === undefined) {
    if (input.isolation === "worktree") throw notSupportedWorktree();
    return undefined;
  }
  const dir = path.resolve(ctx.cwd, expandTilde(input.cwd));
  // A subagent's folder outside the roots is refused before anything tells whether it exists (issue #19).
  await assertPathInsideRoots(ctx.session, dir, input.cwd);
  const state = await directoryState(dir);
  if (input.isolation === "worktree") {
    if (state === "ok")
      throw invalid(
        'cwd and isolation="worktree" are mutually exclusive. Pass cwd to work in an existing directory, or isolation="worktree" for a fresh worktree, not both.',
      );
    // A cwd that does not exist is dropped in favour of the worktree (the reference's order).
    throw notSupportedWorktree();
  }
  if (resuming && state === "missing") return dir;
  if (state === "missing") throw invalid(`cwd "${input.cwd}" does not exist`, "Pass an existing directory, or omit cwd to use the current working directory.");
  if (state === "not_directory")
    throw invalid(`cwd "${input.cwd}" exists but is not a directory`, "Pass a directory, or omit cwd to use the current working directory.");
  return dir;
}

function notSupportedWorktree(): ToolError {
  return new ToolError(ErrorCode.NOT_IMPLEMENTED, 'isolation="worktree" is not supported by this server.', {
    suggestion: 'Use isolation="none" (the default), with cwd to choose the subagent\'s directory.',
  });
}

function checkType(name: string, types: readonly SubagentType[], params: TaskParams): SubagentType {
  const type = types.find((t) => t.name === name);
  if (!type) {
    throw invalid(`Unknown subagent type: ${name}. Available types: ${types.map((t) => t.name).join(", ")}`, "Use one of the available types.", {
      available_types: types.map((t) => t.name),
    });
  }
  if (params.disabled_types.includes(name)) throw invalid(`Subagent '${name}' is disabled via [subagents.toggle] in config.toml`);
  if (params.allowed_types.length > 0 && !params.allowed_types.includes(name)) {
    throw invalid(`agent can only spawn: ${params.allowed_types.join(", ")}; '${name}' not allowed`);
  }
  return type;
}

function checkResumeSource(source: SubagentSnapshot | undefined, id: string, typeName: string, parentSessionId: string): void {
  if (!source) throw invalid(`Cannot resume from ${id}: no subagent with that id exists in this session.`, "Pass the subagent_id of a completed subagent.");
  if (source.status !== "completed") {
    throw invalid(
      `Cannot resume from ${id}: the subagent is ${source.status}; only a completed subagent can be resumed.`,
      "Wait for it to complete, or start a new subagent.",
    );
  }
  if (source.parentSessionId !== parentSessionId) throw invalid(`Cannot resume from ${id}: the subagent belongs to another session.`);
  if (source.subagentType !== typeName) {
    throw invalid(
      `Cannot resume from ${id}: it is a ${source.subagentType} subagent, not ${typeName}.`,
      `Pass subagent_type="${source.subagentType}" to resume it.`,
    );
  }
}

function retrievalHint(ctx: ToolContext<TaskParams>, id: string): string {
  const tool = ctx.names.tool("background_task_action") ?? "get_task_output";
  return `Use ${tool} with task_ids=["${id}"] and timeout_ms to wait for results.`;
}

function text(value: string): ToolResult<TaskOutput> {
  return { output: { type: "Text", text: value }, promptText: value };
}

/** Runs the task tool. */
export async function executeTask(input: TaskInput, ctx: ToolContext<TaskParams>): Promise<ToolResult<TaskOutput>> {
  const params = ctx.params;
  const slot = ctx.session.service(subagentHostService);
  if (slot.depth >= params.max_depth) {
    throw invalid(`Subagent depth limit exceeded (current depth: ${slot.depth}, max: ${params.max_depth}). Cannot spawn further nested subagents.`);
  }
  const resumeFrom = input.resume_from?.trim();
  const cwd = await checkCwd(input, ctx, resumeFrom !== undefined);
  const types = await loadSubagentTypes(ctx.session.workspace, params.agent_dirs, KNOWN_KINDS, parseCapabilityMode, (message, error) =>
    ctx.log.warn({ err: error }, message),
  );
  const typeName = input.subagent_type?.trim() || "general-purpose";
  const type = checkType(typeName, types, params);
  const manager = ctx.session.service(taskManagerService);
  const parentSessionId = slot.parentSessionId ?? ctx.session.id;
  if (resumeFrom !== undefined) checkResumeSource(manager.subagents.snapshot(resumeFrom), resumeFrom, typeName, parentSessionId);
  const host = slot.host;
  if (!host) {
    throw new ToolError(ErrorCode.EXECUTION_FAILED, "SubagentBackendResource (subagent support not initialized)", {
      suggestion: "Finalize with client_callback_addr pointing at a host that serves GrokToolsCallbackService/SpawnSubagent.",
      details: { kind: "missing_resource" },
    });
  }

  const mode: CapabilityMode = (input.capability_mode as CapabilityMode | undefined) ?? type.defaultCapability;
  const tools = resolveChildTools(ctx.toolset, type, mode, slot.depth + 1 < params.max_depth);
  const id = uuidV7();
  const request: SubagentSpawnRequest = {
    id,
    prompt: input.prompt,
    description: input.description,
    subagentType: type.name,
    parentSessionId,
    ...(resumeFrom !== undefined ? { resumeFrom } : {}),
    ...(cwd !== undefined ? { cwd } : { cwd: ctx.cwd }),
    systemPrompt: renderSubagentSystemPrompt(type, tools, cwd ?? ctx.cwd),
    toolNames: tools.map((t) => t.clientName),
  };
  const background = input.run_in_background ?? true;
  const notify = ctx.notify.bind(ctx);
  manager.subagents.start({ request, host, background, notify, maxConcurrent: maxConcurrent(params), limitBehavior: limitBehavior(params) });
  ctx.log.info({ subagentId: id, type: type.name, background, tools: request.toolNames }, "subagent started");

  if (background) {
    return text(`Subagent started in background.\nsubagent_id: ${id}\ntype: ${type.name}\ndescription: ${input.description}\n\n${retrievalHint(ctx, id)}`);
  }
  return awaitForeground(ctx, id, type.name, input.description, params.foreground_budget_ms);
}

async function awaitForeground(
  ctx: ToolContext<TaskParams>,
  id: string,
  typeName: string,
  description: string,
  budgetMs: number,
): Promise<ToolResult<TaskOutput>> {
  const subagents = ctx.session.service(taskManagerService).subagents;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const outcome = await new Promise<"done" | "budget" | "cancelled">((resolve) => {
    void subagents.completion(id).then(() => resolve("done"));
    timer = setTimeout(() => resolve("budget"), Math.min(budgetMs, 2 ** 31 - 1));
    onAbort = () => resolve("cancelled");
    if (ctx.signal.aborted) onAbort();
    ctx.signal.addEventListener("abort", onAbort, { once: true });
  });
  clearTimeout(timer);
  if (onAbort) ctx.signal.removeEventListener("abort", onAbort);
  if (outcome === "cancelled") {
    // The parent call's cancellation cancels the child (and its SpawnSubagent call).
    subagents.cancel(id, "The parent call was cancelled");
    throw new ToolError(ErrorCode.CANCELLED, "Tool call was cancelled");
  }
  if (outcome === "budget") {
    subagents.markBackgrounded(id);
    const notified = ctx.session.systemRemindersEnabled ? " — you will be notified when it completes" : "";
    return text(
      `Subagent took longer than the foreground budget and was moved to the background to keep the conversation responsive. It is still running${notified}.\nsubagent_id: ${id}\ntype: ${typeName}\ndescription: ${description}\n\n${retrievalHint(ctx, id)}`,
    );
  }
  const snap = subagents.snapshot(id)!;
  if (snap.status !== "completed" || !snap.result) throw invalid(snap.error ?? "Unknown subagent error");
  const r = snap.result;
  const output: TaskOutput = {
    type: "SubagentCompleted",
    output: r.output,
    subagent_id: id,
    subagent_type: typeName,
    tool_calls: r.toolCalls,
    turns: r.turns,
    duration_ms: r.durationMs,
    worktree_path: null,
    resume_from_hint: id,
  };
  return { output, promptText: `${r.output}\n\n${resumeFooter(id, typeName)}` };
}
