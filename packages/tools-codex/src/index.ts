/**
 * @grok-tools/tools-codex: the Codex namespace. The default export is the namespace.
 */
export { codex, codexTools } from "./namespace.js";
export { codex as default } from "./namespace.js";
