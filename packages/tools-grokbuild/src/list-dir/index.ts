/** `GrokBuild:list_dir`. */
export { listDir } from "./list-dir.js";
