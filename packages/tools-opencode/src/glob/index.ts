/** `OpenCode:glob`. */
export { glob } from "./glob.js";
