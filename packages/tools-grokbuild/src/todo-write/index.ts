/** `GrokBuild:todo_write`, its todo-list state, and the todo-nudge check. */
export { todoWrite } from "./todo-write.js";
export { isTodoNudgeDue, todoStateResource } from "./state.js";
