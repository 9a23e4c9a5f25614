/**
 * The GrokBuild namespace: the tools listed in registration order (spec §2.2).
 */
import { defineNamespace, type AnyToolDefinition } from "@grok-tools/runtime";
import { askUserQuestion } from "./ask-user-question/index.js";
import { enterPlanMode } from "./enter-plan-mode/index.js";
import { exitPlanMode } from "./exit-plan-mode/index.js";
import { readFile, readFileConcise } from "./read-file/index.js";
import { runTerminalCmd, runTerminalCmdConcise } from "./run-terminal-cmd/index.js";
import { killTaskTool } from "./kill-task/index.js";
import { killTerminalCommandTool } from "./kill-terminal-command/index.js";
import { getTaskOutputTool } from "./get-task-output/index.js";
import { getTerminalCommandOutputTool } from "./get-terminal-command-output/index.js";
import { waitTasksTool } from "./wait-tasks/index.js";
import { webFetch } from "./web-fetch/index.js";
import { searchReplace } from "./search-replace/index.js";
import { searchReplaceConcise } from "./search-replace-concise/index.js";
import { listDir } from "./list-dir/index.js";
import { grep } from "./grep/index.js";
import { todoWrite } from "./todo-write/index.js";

/** GrokBuild tools, in the reference's registration order. */
export const grokBuildTools: AnyToolDefinition[] = [
  runTerminalCmd,
  readFile,
  searchReplace,
  listDir,
  grep,
  killTaskTool,
  killTerminalCommandTool,
  todoWrite,
  getTaskOutputTool,
  getTerminalCommandOutputTool,
  waitTasksTool,
  webFetch,
  enterPlanMode,
  exitPlanMode,
  askUserQuestion,
];

/** The `GrokBuild` namespace. */
export const grokBuild = defineNamespace({ name: "GrokBuild", apiVersion: 1, tools: grokBuildTools });

/** GrokBuildConcise tools (the concise twins). */
export const grokBuildConciseTools: AnyToolDefinition[] = [
  readFileConcise,
  searchReplaceConcise,
  runTerminalCmdConcise,
];

/** The `GrokBuildConcise` namespace. */
export const grokBuildConcise = defineNamespace({ name: "GrokBuildConcise", apiVersion: 1, tools: grokBuildConciseTools });
