/**
 * @grok-tools/tools-grokbuild: the GrokBuild and GrokBuildConcise namespaces.
 * The default export is the GrokBuild namespace.
 */
export { grokBuild, grokBuildConcise, grokBuildTools, grokBuildConciseTools, grokBuildBehaviour, grokBuildConciseBehaviour } from "./namespace.js";
export { grokBuild as default } from "./namespace.js";
export { askUserQuestion } from "./ask-user-question/index.js";
export { enterPlanMode, planModeSession, type PlanModeSession } from "./enter-plan-mode/index.js";
export { exitPlanMode } from "./exit-plan-mode/index.js";
export { webFetch, webFetchSession, WebFetchSession, type HostResolver, type ResolvedAddress } from "./web-fetch/index.js";
export { readFile, readFileConcise, GITIGNORE_POLICY, CURSOR_RULES_ON_READ, type GitignorePolicy } from "./read-file/index.js";
export { runTerminalCmd, runTerminalCmdConcise, logFileNameFor } from "./run-terminal-cmd/index.js";
export { getTaskOutput } from "./get-task-output/index.js";
export { task } from "./task/index.js";
export { getTerminalCommandOutput } from "./get-terminal-command-output/index.js";
export { waitTasks } from "./wait-tasks/index.js";
export { killTask } from "./kill-task/index.js";
export { killTerminalCommand } from "./kill-terminal-command/index.js";
export { searchReplace } from "./search-replace/index.js";
export { searchReplaceConcise } from "./search-replace-concise/index.js";
export { listDir } from "./list-dir/index.js";
export { grep } from "./grep/index.js";
export { todoWrite, todoStateResource, isTodoNudgeDue } from "./todo-write/index.js";
export {
  taskCompletionReminder,
  formatBashCompletion,
  formatRunningTasksWarning,
  consumedCompletionIds,
  truncateWithPreview,
  reportedTaskCompletionsResource,
} from "./reminders/task-completion.js";
export { todoNudgeReminder, todoNudgeStateResource, TODO_NUDGE_TEMPLATE } from "./reminders/todo-nudge.js";
export { LEGACY_0_4_10, RELEASE_0_1_157, GROK_BUILD_PRESETS } from "./shared/versions.js";
export { fileToolsetConflictRule } from "./shared/file-toolset-rule.js";
export { HOST_TEMPLATE_FLAGS } from "./shared/host-flags.js";
