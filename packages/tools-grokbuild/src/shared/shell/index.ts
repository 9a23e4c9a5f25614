/**
 * Shared shell helpers of the GrokBuild terminal tools.
 */
export * from "./background-operator.js";
export * from "./pkill-guard.js";
export * from "./text.js";
export * from "./bare-echo.js";
