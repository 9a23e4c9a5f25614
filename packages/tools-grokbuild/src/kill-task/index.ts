/**
 * `GrokBuild:kill_task`.
 */
export { killTaskTool } from "./kill-task.js";
