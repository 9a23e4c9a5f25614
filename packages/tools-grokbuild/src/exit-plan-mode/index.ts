/** GrokBuild:exit_plan_mode. */
export { exitPlanMode } from "./exit-plan-mode.js";
