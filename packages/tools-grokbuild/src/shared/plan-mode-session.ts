/**
 * Plan-mode state of one session (a session service, never a module global): whether plan mode is
 * active and where the plan file lives. Shared by enter_plan_mode and exit_plan_mode.
 */
import path from "node:path";
import { defineService, type SessionHandle } from "@grok-tools/runtime";

/** File name of the plan inside the session folder (the reference's `<session_dir>/plan.md`). */
export const PLAN_FILE_NAME = "plan.md";

/** Fallback plan path relative to the cwd, used by the reference when no session folder exists. */
export const PLAN_FILE_RELATIVE_PATH = ".grok/plan.md";

/** The session's plan-mode tracker. */
export interface PlanModeSession {
  /** True between a successful enter_plan_mode and the next exit_plan_mode. */
  active: boolean;
  /** Call id of the enter_plan_mode call that opened the current plan phase. */
  enteredByCallId: string | undefined;
  /** Where the plan is written: `<sessionDir>/plan.md`. */
  readonly planFilePath: string;
}

/** Session service holding the plan-mode state. */
export const planModeSession = defineService<PlanModeSession, SessionHandle>({
  name: "grok_build.PlanMode",
  create: (session) => ({
    active: false,
    enteredByCallId: undefined,
    planFilePath: session.sessionDir === "" ? PLAN_FILE_RELATIVE_PATH : path.join(session.sessionDir, PLAN_FILE_NAME),
  }),
});

/** The plan path as shown to the model, and the absolute target when one exists (else undefined). */
export function resolvePlanFilePath(state: PlanModeSession): { target: string | undefined; display: string } {
  const display = state.planFilePath;
  return { target: path.isAbsolute(display) ? display : undefined, display };
}
