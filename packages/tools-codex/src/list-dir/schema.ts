/**
 * Input and output schemas of Codex:list_dir (TypeBox; the types derive from them).
 * Property descriptions are the reference's, verbatim.
 */
import { Type, type Static } from "@grok-tools/runtime";

/** Input of `list_dir`. */
export const CodexListDirInput = Type.Object({
  dir_path: Type.String({ description: "Absolute path to the directory to list." }),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 1, description: "The entry number to start listing from. Must be 1 or greater." })),
  limit: Type.Optional(Type.Integer({ minimum: 0, default: 25, description: "The maximum number of entries to return." })),
  depth: Type.Optional(Type.Integer({ minimum: 0, default: 2, description: "The maximum directory depth to traverse. Must be 1 or greater." })),
});
export type CodexListDirInput = Static<typeof CodexListDirInput>;

/** Output of `list_dir` (failures are ToolErrors, decision D1). */
export const CodexListDirOutput = Type.Object({
  type: Type.Literal("ListDir"),
  Content: Type.Object({
    content: Type.String({ description: "Formatted directory listing string" }),
    absolute_root_path: Type.String({ description: "Root directory path (absolute) for this listing" }),
  }),
});
export type CodexListDirOutput = Static<typeof CodexListDirOutput>;
