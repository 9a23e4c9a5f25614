/**
 * `GrokBuild:wait_tasks`.
 */
export { waitTasksTool } from "./wait-tasks.js";
