/**
 * `GrokBuild:run_terminal_cmd`: the bash tool with the DEFAULT prompt format
 * (`exit: N …`); the CONCISE format is its `promptTextConcise`.
 */
import { defineBashTool } from "./define-bash-tool.js";

/** `GrokBuild:run_terminal_cmd`. */
export const runTerminalCmd = defineBashTool("default");
