/** `GrokBuildConcise:search_replace`. */
export { searchReplaceConcise } from "./search-replace-concise.js";
