/**
 * @grok-tools/tools-opencode: the OpenCode tool namespace (bash, read, edit, write, glob, grep,
 * todowrite), built as an outside vendor would, on the runtime's public entries only.
 */
export { openCode, openCode as default, openCodeTools } from "./namespace.js";
export { bash } from "./bash/index.js";
export { read } from "./read/index.js";
export { edit } from "./edit/index.js";
export { write } from "./write/index.js";
export { glob } from "./glob/index.js";
export { grep } from "./grep/index.js";
export { todowrite, todoStateResource } from "./todowrite/index.js";
