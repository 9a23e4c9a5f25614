/** Input and output schemas of `OpenCode:read` (spec §4.14): camelCase input, `ReadFile` output. */
import { Type, type Static } from "@grok-tools/runtime";
import { optionalUnsigned } from "../shared/schema.js";

/** Input: `filePath`, optional 1-based `offset` and `limit` (lines, or entries of a folder). */
export const ReadInput = Type.Object({
  filePath: Type.String({ description: "Absolute path to a file or directory." }),
  offset: optionalUnsigned("1-indexed line number to start reading from.", "uint32"),
  limit: optionalUnsigned("Maximum number of lines to return (default 2000).", "uint32"),
});
export type ReadInput = Static<typeof ReadInput>;

const FileContent = Type.Object({
  content: Type.String(),
  absolute_path: Type.String(),
  offset: Type.Union([Type.Integer(), Type.Null()]),
  limit: Type.Union([Type.Integer(), Type.Null()]),
  raw_output: Type.String(),
  total_lines: Type.Integer(),
});

const ImageContent = Type.Object({ data: Type.String(), mime_type: Type.String() });

/** Output: `{"type":"ReadFile","FileContent":{...}}` or `{"type":"ReadFile","ImageContent":{...}}`. */
export const ReadOutput = Type.Union([
  Type.Object({ type: Type.Literal("ReadFile"), FileContent }),
  Type.Object({ type: Type.Literal("ReadFile"), ImageContent }),
]);
export type ReadOutput = Static<typeof ReadOutput>;
