/** `OpenCode:todowrite` and the shared todo state. */
export { todowrite } from "./todowrite.js";
export { todoStateResource } from "./state.js";
