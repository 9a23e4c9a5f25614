/**
 * `GrokBuild:kill_terminal_command`.
 */
export { killTerminalCommandTool } from "./kill-terminal-command.js";
