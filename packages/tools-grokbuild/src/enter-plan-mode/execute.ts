/**
 * enter_plan_mode: notifies the host, marks the session as planning and seeds an empty plan file
 * when none exists. Never truncates an existing plan; read-only enforcement is the host's job.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ToolContext, ToolResult } from "@grok-tools/runtime";
import { ENTERED_MESSAGE, formatEntered } from "./format.js";
import { planModeSession, resolvePlanFilePath } from "./plan-mode-session.js";
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
  const seed: PlanFileSeedStatus = target === undefined ? { missing: "unavailable" } : await probeOrCreatePlanFile(target);
  state.active = true;
  state.enteredByCallId = ctx.callId;

  const entered = { message: ENTERED_MESSAGE, plan_file_path: display, tool_hints: toolHints, plan_file_seed: seed };
  return { output: { type: "EnterPlanMode", Entered: entered }, promptText: formatEntered(entered) };
}

/**
 * Probes the plan file and creates an empty one only when it does not exist. Any other read error
 * fails closed without writing, so existing content can never be truncated.
 */
export async function probeOrCreatePlanFile(target: string): Promise<PlanFileSeedStatus> {
  try {
    const bytes = await readFile(target);
    return bytes.length === 0 ? "empty" : "non_empty";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EISDIR") return { missing: "not_a_file" };
    if (code !== "ENOENT") return { missing: "inaccessible" };
  }
  try {
    await mkdir(path.dirname(target), { recursive: true });
    // `wx`: if something appeared at the path meanwhile, leave it alone.
    await writeFile(target, "", { flag: "wx" });
    return "empty";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return { missing: "not_created" };
  }
  // Another writer won the race (or a dangling symlink sits there): report what is readable now.
  try {
    return (await readFile(target)).length === 0 ? "empty" : "non_empty";
  } catch {
    return { missing: "not_created" };
  }
}
