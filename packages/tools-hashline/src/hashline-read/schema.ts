/** Input and output schemas of `GrokBuildHashline:hashline_read` (the read_file input keys). */
import { Type, type Static } from "@grok-tools/runtime";

/** Input: `target_file`, optional 1-based `offset` and `limit`. */
export const HashlineReadInput = Type.Object({
  target_file: Type.String({
    description:
      "The path of the file to read. You can use either a relative path in the workspace or an absolute path. If an absolute path is provided, it will be preserved as is.",
  }),
  offset: Type.Optional(
    Type.Integer({ default: 1, description: "The line number to start reading from. Only provide if the file is too large to read at once." }),
  ),
  limit: Type.Optional(Type.Integer({ description: "The number of lines to read. Only provide if the file is too large to read at once." })),
});
export type HashlineReadInput = Static<typeof HashlineReadInput>;

/** Output: `{"type":"ReadFile","FileContent":{...}}`. */
export const HashlineReadOutput = Type.Object({
  type: Type.Literal("ReadFile"),
  FileContent: Type.Object({
    content: Type.String({ description: "The anchored lines shown to the model" }),
    absolute_path: Type.String(),
    offset: Type.Union([Type.Integer(), Type.Null()]),
    limit: Type.Union([Type.Integer(), Type.Null()]),
    raw_output: Type.String(),
    total_lines: Type.Integer(),
    scheme: Type.String(),
  }),
});
export type HashlineReadOutput = Static<typeof HashlineReadOutput>;
