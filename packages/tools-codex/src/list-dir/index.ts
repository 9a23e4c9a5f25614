/** Codex:list_dir. */
export { listDir } from "./list-dir.js";
