/** Input schema of `OpenCode:edit` (spec §4.14): camelCase keys. */
import { Type, type Static } from "@grok-tools/runtime";

/** Input: `filePath`, `oldString`, `newString`, optional lenient `replaceAll`. */
export const EditInput = Type.Object({
  filePath: Type.String({ description: "The path to the file to modify." }),
  oldString: Type.String({ description: "The text to replace" }),
  newString: Type.String({ description: "The text to replace it with (must be different from ${{ params.edit.oldString }})" }),
  replaceAll: Type.Optional(Type.Boolean({ default: false, description: "Replace all occurrences of ${{ params.edit.oldString }}" })),
});
export type EditInput = Static<typeof EditInput>;
