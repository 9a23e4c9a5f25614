/**
 * `GrokBuild:task`.
 */
export { task } from "./task.js";
