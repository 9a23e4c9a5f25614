/** Codex:read_file. */
export { readFile } from "./read-file.js";
