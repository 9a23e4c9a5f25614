/**
 * enter_plan_mode: notifies the host, marks the session as planning and seeds an empty plan file
 * when none exists. Never truncates an existing plan; read-only enforcement is the host's job.
 */
import { createFileConfined, errnoCode, readFileConfined, type FsScope } from "@grok-tools/runtime/fs";
import { type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { ENTERED_MESSAGE, formatEntered } from "./format.js";
import { planModeSession, resolvePlanFilePath } from "../shared/plan-mode-session.js";
import type { EnterPlanModeOutput, PlanFileSeedStatus } from "./schema.js";

/** Runs enter_plan_mode. */
export async function executeEnterPlanMode(ctx: ToolContext<unknown>): Promise<ToolResult<EnterPlanModeOutput>> {
  // The host hears about the transition first, as in the reference.
  ctx.notify({ type: "PlanModeEntered", tool_call_id: ctx.callId });

  const state = ctx.session.service(planModeSession);
  const { target, display } = resolvePlanFilePath(state);
  const toolHints = {
    ask_user: ctx.names.tool("ask_user") ?? "ask_user_question",
    exit_plan: ctx.names.tool("exit_plan") ?? "exit_plan_mode",
    task: ctx.names.tool("task") ?? "",
  };
  const seed: PlanFileSeedStatus = target === undefined ? { missing: "unavailable" } : await probeOrCreatePlanFile(ctx.session, target);
  state.active = true;
  state.enteredByCallId = ctx.callId;

  const entered = { message: ENTERED_MESSAGE, plan_file_path: display, tool_hints: toolHints, plan_file_seed: seed };
  return { output: { type: "EnterPlanMode", Entered: entered }, promptText: formatEntered(entered) };
}

/**
 * Probes the plan file and creates an empty one only when it does not exist. Any other read error
 * fails closed without writing, so existing content can never be truncated. Both go through the
 * runtime's confined file layer: the plan lives in the session folder (one of the session's roots),
 * and a plan file or folder that is a link out of the roots is neither read nor written.
 */
export async function probeOrCreatePlanFile(scope: FsScope, target: string): Promise<PlanFileSeedStatus> {
  const first = await probe(scope, target);
  if (first !== "missing") return first;
  try {
    await createFileConfined(scope, target, "");
    return "empty";
  } catch (error) {
    // EEXIST: something appeared at the path meanwhile (or a dangling link sits there): leave it alone.
    if (errnoCode(error) !== "EEXIST") return { missing: "not_created" };
  }
  const second = await probe(scope, target);
  return second === "missing" ? { missing: "not_created" } : second;
}

/** What is at the plan path now; `missing` when nothing is (ENOENT). */
async function probe(scope: FsScope, target: string): Promise<PlanFileSeedStatus | "missing"> {
  try {
    const read = await readFileConfined(scope, target);
    return read.bytes.length === 0 ? "empty" : "non_empty";
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT") return "missing";
    if (code === "EISDIR") return { missing: "not_a_file" };
    // Outside the roots, a FIFO or device, or another read error.
    return { missing: "inaccessible" };
  }
}
