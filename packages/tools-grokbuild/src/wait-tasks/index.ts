/**
 * `GrokBuild:wait_tasks`.
 */
export { waitTasks } from "./wait-tasks.js";
