/**
 * `GrokBuildConcise:run_terminal_cmd`: the same bash tool whose main prompt is the
 * CONCISE format (`Exit code: N`, fenced output). Unmanaged: no behaviour versions.
 */
import { defineBashTool } from "./define-bash-tool.js";

/** `GrokBuildConcise:run_terminal_cmd`. */
export const runTerminalCmdConcise = defineBashTool("concise");
