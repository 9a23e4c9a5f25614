/**
 * @grok-tools/tools-grokbuild: the GrokBuild and GrokBuildConcise namespaces.
 * The default export is the GrokBuild namespace.
 */
export { grokBuild, grokBuildConcise, grokBuildTools, grokBuildConciseTools } from "./namespace.js";
export { grokBuild as default } from "./namespace.js";
