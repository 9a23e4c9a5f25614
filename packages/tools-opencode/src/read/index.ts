/** `OpenCode:read`. */
export { read } from "./read.js";
