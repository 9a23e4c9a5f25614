/**
 * `GrokBuild:get_terminal_command_output`.
 */
export { getTerminalCommandOutputTool } from "./get-terminal-command-output.js";
