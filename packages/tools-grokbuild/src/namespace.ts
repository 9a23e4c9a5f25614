/**
 * The GrokBuild namespaces: the tools listed in registration order (spec §2.2), with what they bring
 * to every session: the task-completion and todo reminders, the behaviour presets, the file-bundle
 * rule and the host flags of the descriptions. GrokBuildConcise keeps system reminders off.
 */
import { defineNamespace, type AnyToolDefinition, type NamespaceSpec } from "@grok-tools/runtime";
import { askUserQuestion } from "./ask-user-question/index.js";
import { enterPlanMode } from "./enter-plan-mode/index.js";
import { exitPlanMode } from "./exit-plan-mode/index.js";
import { readFile, readFileConcise } from "./read-file/index.js";
import { runTerminalCmd, runTerminalCmdConcise } from "./run-terminal-cmd/index.js";
import { killTask } from "./kill-task/index.js";
import { killTerminalCommand } from "./kill-terminal-command/index.js";
import { getTaskOutput } from "./get-task-output/index.js";
import { getTerminalCommandOutput } from "./get-terminal-command-output/index.js";
import { waitTasks } from "./wait-tasks/index.js";
import { task } from "./task/index.js";
import { webFetch } from "./web-fetch/index.js";
import { searchReplace } from "./search-replace/index.js";
import { searchReplaceConcise } from "./search-replace-concise/index.js";
import { listDir } from "./list-dir/index.js";
import { grep } from "./grep/index.js";
import { todoWrite } from "./todo-write/index.js";
import { taskCompletionReminder } from "./reminders/task-completion.js";
import { todoNudgeReminder } from "./reminders/todo-nudge.js";
import { GROK_BUILD_PRESETS } from "./shared/versions.js";
import { fileToolsetConflictRule } from "./shared/file-toolset-rule.js";
import { HOST_TEMPLATE_FLAGS } from "./shared/host-flags.js";

/** GrokBuild tools, in the reference's registration order. */
export const grokBuildTools: AnyToolDefinition[] = [
  runTerminalCmd,
  readFile,
  searchReplace,
  listDir,
  grep,
  killTask,
  killTerminalCommand,
  todoWrite,
  getTaskOutput,
  getTerminalCommandOutput,
  waitTasks,
  task,
  webFetch,
  enterPlanMode,
  exitPlanMode,
  askUserQuestion,
];

/**
 * What the GrokBuild namespace brings besides its tools; a namespace built from some of GrokBuild's
 * tools (tests, a trimmed product) spreads it to behave the same.
 */
export const grokBuildBehaviour = Object.freeze({
  // Background task completions first, then the todo nudge (the reference's order).
  reminders: [taskCompletionReminder, todoNudgeReminder],
  presets: GROK_BUILD_PRESETS,
  toolsetRules: [fileToolsetConflictRule],
  flags: HOST_TEMPLATE_FLAGS,
} satisfies Partial<NamespaceSpec>);

/** What GrokBuildConcise brings besides its tools: no system reminders. */
export const grokBuildConciseBehaviour = Object.freeze({ disablesSystemReminders: true } satisfies Partial<NamespaceSpec>);

/** The `GrokBuild` namespace. */
export const grokBuild = defineNamespace({ name: "GrokBuild", apiVersion: 1, tools: grokBuildTools, ...grokBuildBehaviour });

/** GrokBuildConcise tools (the concise twins). */
export const grokBuildConciseTools: AnyToolDefinition[] = [readFileConcise, searchReplaceConcise, runTerminalCmdConcise];

/** The `GrokBuildConcise` namespace. */
export const grokBuildConcise = defineNamespace({ name: "GrokBuildConcise", apiVersion: 1, tools: grokBuildConciseTools, ...grokBuildConciseBehaviour });
