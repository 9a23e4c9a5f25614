/** `GrokBuildHashline:hashline_read`. */
export { hashlineRead } from "./hashline-read.js";
