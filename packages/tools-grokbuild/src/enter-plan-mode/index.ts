/** GrokBuild:enter_plan_mode and the session's plan-mode state. */
export { enterPlanMode } from "./enter-plan-mode.js";
export { planModeSession, type PlanModeSession } from "../shared/plan-mode-session.js";
