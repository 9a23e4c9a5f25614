/**
 * `GrokBuild:kill_task`.
 */
export { killTask } from "./kill-task.js";
