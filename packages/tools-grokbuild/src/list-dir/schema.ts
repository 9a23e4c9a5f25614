/** Input, output and params schemas of `GrokBuild:list_dir` (spec §4.4, §3.4). */
import { Type, type Static } from "@grok-tools/runtime";

export const ListDirInput = Type.Object({
  target_directory: Type.String({
    description: "Path to directory to list contents of, relative to the workspace root or absolute.",
  }),
});
export type ListDirInput = Static<typeof ListDirInput>;

/** Params resource `grok_build.ListDir`. */
export const ListDirParams = Type.Object({ max_output_chars: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]) }, { additionalProperties: false });
export type ListDirParams = Static<typeof ListDirParams>;

/** Output: `{"type":"ListDir","Content":{content, absolute_root_path}}`. */
export const ListDirOutput = Type.Object({
  type: Type.Literal("ListDir"),
  Content: Type.Object({ content: Type.String(), absolute_root_path: Type.String() }),
});
export type ListDirOutput = Static<typeof ListDirOutput>;
