/** `Acme:word_count`. */
export { wordCount } from "./word-count.js";
