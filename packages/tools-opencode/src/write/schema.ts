/** Input schema of `OpenCode:write` (spec §4.14): snake_case `file_path`, unlike read and edit. */
import { Type, type Static } from "@grok-tools/runtime";

/** Input: the path and the whole new content. */
export const WriteInput = Type.Object({
  file_path: Type.String({ description: "The absolute path to the file to write." }),
  content: Type.String({ description: "The full file content to write." }),
});
export type WriteInput = Static<typeof WriteInput>;
