/** `OpenCode:write`. */
export { write } from "./write.js";
