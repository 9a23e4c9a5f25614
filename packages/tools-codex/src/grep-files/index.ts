/** Codex:grep_files. */
export { grepFiles } from "./grep-files.js";
