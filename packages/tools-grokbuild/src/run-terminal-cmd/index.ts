/**
 * `run_terminal_cmd` for the GrokBuild and GrokBuildConcise namespaces.
 */
export { runTerminalCmd } from "./run-terminal-cmd.js";
export { runTerminalCmdConcise } from "./run-terminal-cmd-concise.js";
export { logFileNameFor } from "./execute.js";
