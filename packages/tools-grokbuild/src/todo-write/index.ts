/** `GrokBuild:todo_write` and its state helpers (todo list, todo-nudge counters). */
export { todoWrite } from "./todo-write.js";
export {
  TODO_NUDGE_CALLS_BETWEEN_NUDGES,
  TODO_NUDGE_CALLS_SINCE_TODO_WRITE,
  isTodoNudgeDue,
  markTodoNudged,
  recordTodoNudgeCall,
  todoNudgeResource,
  todoStateResource,
  type TodoNudgeState,
} from "./state.js";
