/**
 * Input and output schemas of Codex:grep_files (TypeBox; the types derive from them).
 * Property descriptions are the reference's, verbatim.
 */
import { Type, type Static } from "@grok-tools/runtime";

/** Input of `grep_files`. */
export const CodexGrepFilesInput = Type.Object({
  pattern: Type.String({ description: "Regular expression pattern to search for." }),
  include: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'Optional glob that limits which files are searched (e.g. "*.rs" or "*.{ts,tsx}").',
    }),
  ),
  path: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: "Directory or file path to search. Defaults to the session's working directory." }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 0, default: 100, description: "Maximum number of file paths to return (defaults to 100)." })),
});
export type CodexGrepFilesInput = Static<typeof CodexGrepFilesInput>;

/** Output of `grep_files`: matching paths, or none (a success, decision D1). */
export const CodexGrepFilesOutput = Type.Union([
  Type.Object({
    type: Type.Literal("CodexGrepFiles"),
    Matches: Type.Object({ content: Type.String(), file_count: Type.Integer() }),
  }),
  Type.Object({ type: Type.Literal("CodexGrepFiles"), NoMatches: Type.String() }),
]);
export type CodexGrepFilesOutput = Static<typeof CodexGrepFilesOutput>;
