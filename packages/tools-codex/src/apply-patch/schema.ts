/**
 * Input and output schemas of Codex:apply_patch (TypeBox; the types derive from them).
 */
import { Type, type Static } from "@grok-tools/runtime";

/** Input: the patch text. */
export const ApplyPatchInput = Type.Object({
  patch: Type.String({ description: "The patch text in codex patch format." }),
});
export type ApplyPatchInput = Static<typeof ApplyPatchInput>;

/** One file the patch touched. */
export const ApplyPatchFileResult = Type.Object({
  path: Type.String({ description: "Absolute path to the affected file." }),
  action: Type.Union([Type.Literal("added"), Type.Literal("modified"), Type.Literal("deleted"), Type.Literal("moved")], {
    description: 'What happened: `"added"`, `"modified"`, `"deleted"`, or `"moved"`.',
  }),
  old_text: Type.Optional(Type.String({ description: "Full file content before the change. `None` for new files (add), and when `content_omitted`." })),
  new_text: Type.Optional(Type.String({ description: "Full file content after the change. Empty string for deleted files; absent when `content_omitted`." })),
  move_to: Type.Optional(Type.String({ description: "Destination path (only for moves)." })),
  content_omitted: Type.Optional(
    Type.Literal(true, {
      description: "The full texts were left out to keep the reply under 1 MiB of file text; `old_bytes`, `new_bytes` and `diff` describe the change.",
    }),
  ),
  old_bytes: Type.Optional(Type.Integer({ description: "Size of the file before the change, in bytes (with `content_omitted`)." })),
  new_bytes: Type.Optional(Type.Integer({ description: "Size of the file after the change, in bytes (with `content_omitted`)." })),
  diff: Type.Optional(Type.String({ description: "Unified diff of the change, 3 lines of context (with `content_omitted`, when it fits the reply)." })),
});
export type ApplyPatchFileResult = Static<typeof ApplyPatchFileResult>;

/** Output: the applied patch (failures are ToolErrors, decision D1). */
export const ApplyPatchOutput = Type.Object({
  type: Type.Literal("ApplyPatch"),
  Success: Type.Object({
    files: Type.Array(ApplyPatchFileResult),
    tool_output_for_prompt: Type.String(),
  }),
});
export type ApplyPatchOutput = Static<typeof ApplyPatchOutput>;
