/** `GrokBuild:grep`. */
export { grep } from "./grep.js";
