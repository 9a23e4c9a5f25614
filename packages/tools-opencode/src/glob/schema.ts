/** Input and output schemas of `OpenCode:glob` (spec §4.14). */
import { Type, type Static } from "@grok-tools/runtime";
import { optionalString } from "../shared/schema.js";

/** Input: a glob `pattern` and an optional folder `path`. */
export const GlobInput = Type.Object({
  pattern: Type.String({ description: 'Glob pattern to match files against (e.g. "**/*.ts", "src/**/*.tsx").' }),
  path: optionalString("Directory to search in. Defaults to the current working directory."),
});
export type GlobInput = Static<typeof GlobInput>;

/** Output: the prompt text as `{"type":"Text","text":...}` (the reference surfaces glob as `ToolOutput::Text`). */
export const TextOutput = Type.Object({ type: Type.Literal("Text"), text: Type.String() });
export type TextOutput = Static<typeof TextOutput>;
