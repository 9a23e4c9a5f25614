/** `GrokBuild:search_replace` (the concise twin lives in `search-replace-concise/`). */
export { searchReplace } from "./search-replace.js";
