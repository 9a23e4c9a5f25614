/**
 * `GrokBuild:get_task_output` and the task-output logic shared with its twins.
 */
export { getTaskOutput } from "./get-task-output.js";
