/** Codex:apply_patch and its pure patch engine. */
export { applyPatch } from "./apply-patch.js";
export { parsePatch, type Hunk, type ParsedPatch, type UpdateFileChunk } from "./parser.js";
export { seekSequence } from "./seek-sequence.js";
export { deriveNewContents } from "./apply.js";
export { PATCH_GRAMMAR } from "./grammar.js";
