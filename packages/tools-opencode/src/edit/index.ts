/** `OpenCode:edit`. */
export { edit } from "./edit.js";
