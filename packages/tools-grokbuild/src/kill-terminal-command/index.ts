/**
 * `GrokBuild:kill_terminal_command`.
 */
export { killTerminalCommand } from "./kill-terminal-command.js";
