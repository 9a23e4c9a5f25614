/** `GrokBuildHashline:hashline_grep`. */
export { hashlineGrep } from "./hashline-grep.js";
