/** `OpenCode:grep`. */
export { grep } from "./grep.js";
