/**
 * @grok-tools/tools-hashline: the GrokBuildHashline namespace (hashline_read, hashline_edit,
 * hashline_grep), built on the runtime's public entries only.
 */
export { grokBuildHashline, grokBuildHashline as default, hashlineTools } from "./namespace.js";
export { hashlineRead } from "./hashline-read/index.js";
export { hashlineEdit } from "./hashline-edit/index.js";
export { hashlineGrep } from "./hashline-grep/index.js";
export { fileToolsetConflictRule } from "./shared/file-toolset-rule.js";
export { HASHLINE_PARAMS_RESOURCE_ID, HASHLINE_PARAMS_DEFAULTS, type HashlineSchemeParams } from "./shared/params.js";
