/**
 * Input and output schemas of Codex:read_file (TypeBox; the types derive from them).
 * Property descriptions are the reference's, verbatim.
 */
import { Type, type Static } from "@grok-tools/runtime";

/** Options of indentation mode. */
export const IndentationArgs = Type.Object({
  anchor_line: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: "Anchor line to center the indentation lookup on (defaults to offset)." }),
  ),
  max_levels: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: "How many parent indentation levels (smaller indents) to include." })),
  include_siblings: Type.Optional(Type.Boolean({ default: false, description: "When true, include additional blocks that share the anchor indentation." })),
  include_header: Type.Optional(Type.Boolean({ default: true, description: "Include doc comments or attributes directly above the selected block." })),
  max_lines: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: "Hard cap on the number of lines returned when using indentation mode." }),
  ),
});
export type IndentationArgs = Static<typeof IndentationArgs>;

/** Input of `read_file`. */
export const CodexReadFileInput = Type.Object({
  file_path: Type.String({ description: "Absolute path to the file" }),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 1, description: "The line number to start reading from. Must be 1 or greater." })),
  limit: Type.Optional(Type.Integer({ minimum: 0, default: 2000, description: "The maximum number of lines to return." })),
  mode: Type.Optional(
    Type.Union([Type.Literal("slice"), Type.Literal("indentation")], {
      default: "slice",
      description: 'Optional mode selector: "slice" for simple ranges (default) or "indentation" to expand around an anchor line.',
    }),
  ),
  indentation: Type.Optional(
    Type.Union([IndentationArgs, Type.Null()], { description: 'Indentation-mode configuration. Only used when mode is "indentation".' }),
  ),
});
export type CodexReadFileInput = Static<typeof CodexReadFileInput>;

/** Output of `read_file`: the lines read (failures are ToolErrors, decision D1). */
export const CodexReadFileOutput = Type.Object({
  type: Type.Literal("ReadFile"),
  FileContent: Type.Object({
    content: Type.String(),
    absolute_path: Type.String(),
    offset: Type.Integer(),
    limit: Type.Integer(),
    raw_output: Type.String(),
    total_lines: Type.Integer(),
  }),
});
export type CodexReadFileOutput = Static<typeof CodexReadFileOutput>;
