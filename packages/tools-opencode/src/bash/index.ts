/** `OpenCode:bash`. */
export { bash } from "./bash.js";
