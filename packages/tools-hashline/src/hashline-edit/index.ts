/** `GrokBuildHashline:hashline_edit`. */
export { hashlineEdit } from "./hashline-edit.js";
