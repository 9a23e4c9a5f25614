/**
 * @grok-tools/tools-codex: the Codex namespace. The default export is the namespace.
 */
export { codex, codexTools } from "./namespace.js";
export { codex as default } from "./namespace.js";
export { applyPatch } from "./apply-patch/index.js";
export { listDir } from "./list-dir/index.js";
export { grepFiles } from "./grep-files/index.js";
export { readFile } from "./read-file/index.js";
