/**
 * @grok-tools/tools-codex: the Codex namespace (apply_patch, list_dir, grep_files, read_file). The default
 * export is the namespace; the tools and the pure patch engine are exported by name.
 */
export { codex, codexTools } from "./namespace.js";
export { codex as default } from "./namespace.js";
export { applyPatch } from "./apply-patch/index.js";
export { listDir } from "./list-dir/index.js";
export { grepFiles } from "./grep-files/index.js";
export { readFile } from "./read-file/index.js";
export { PATCH_GRAMMAR, deriveNewContents, parsePatch, seekSequence, type Hunk, type ParsedPatch, type UpdateFileChunk } from "./apply-patch/index.js";
