/**
 * `GrokBuild:get_terminal_command_output`.
 */
export { getTerminalCommandOutput } from "./get-terminal-command-output.js";
