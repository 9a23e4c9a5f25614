/**
 * exit_plan_mode: reads the session plan file, notifies the host with its content and ends the
 * session's plan phase. The approval UI is the host's job; this tool only says "here is the plan".
 * The plan is read inside the session's roots only.
 */
import { ErrorCode, ToolError, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { readFileConfined, type FsScope } from "@grok-tools/runtime/fs";
import { planModeSession, resolvePlanFilePath } from "../shared/plan-mode-session.js";
import { EMPTY_PLAN_MESSAGE, PLAN_APPROVED_MESSAGE, formatPlanReady } from "./format.js";
import type { ExitPlanModeOutput } from "./schema.js";

/** Runs exit_plan_mode. */
export async function executeExitPlanMode(ctx: ToolContext<unknown>): Promise<ToolResult<ExitPlanModeOutput>> {
  const state = ctx.session.service(planModeSession);
  const { target, display } = resolvePlanFilePath(state);
  if (target === undefined) {
    throw new ToolError(ErrorCode.INTERNAL, "missing required resource: PlanFilePath or an absolute Cwd", {
      details: { code: "missing_resource" },
    });
  }
  const planContent = await readPlan(ctx.session, target);

  ctx.notify({ type: "PlanModeExited", tool_call_id: ctx.callId, plan_content: planContent ?? null, plan_file_path: display });
  state.active = false;
  state.enteredByCallId = undefined;

  if (planContent === undefined) {
    return {
      output: { type: "ExitPlanMode", EmptyPlan: { message: EMPTY_PLAN_MESSAGE, plan_file_path: display } },
      promptText: EMPTY_PLAN_MESSAGE,
    };
  }
  return {
    output: {
      type: "ExitPlanMode",
      PlanReady: { message: PLAN_APPROVED_MESSAGE, plan_content: planContent, plan_file_path: display },
    },
    promptText: formatPlanReady(PLAN_APPROVED_MESSAGE, display, planContent),
  };
}

/**
 * The plan text (invalid UTF-8 replaced), or undefined when unreadable, empty or whitespace-only.
 * Read through the confined layer: a plan file that is a link out of the session's roots is unreadable.
 */
async function readPlan(scope: FsScope, target: string): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = (await readFileConfined(scope, target)).bytes;
  } catch {
    return undefined;
  }
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes);
  return text.trim() === "" ? undefined : text;
}
