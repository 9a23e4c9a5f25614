/** Input and output schemas of `GrokBuildHashline:hashline_grep` (the GrokBuild grep keys, content mode only). */
import { Type, type Static } from "@grok-tools/runtime";

const optionalString = (description: string) => Type.Optional(Type.Unsafe<string | null>({ type: ["string", "null"], description }));

/** Input: a regex and the usual ripgrep filters and context. */
export const HashlineGrepInput = Type.Object({
  pattern: Type.String({ description: "The regular expression pattern to search for in file contents (rg --regexp)" }),
  path: optionalString("File or directory to search in (rg pattern -- PATH). Defaults to the workspace root."),
  glob: optionalString('Glob pattern (rg --glob GLOB -- PATH) to filter files (e.g. "*.js", "*.{ts,tsx}").'),
  type: optionalString('File type to search (rg --type TYPE), e.g. "js", "py", "rust".'),
  "-B": Type.Optional(Type.Integer({ minimum: 0, description: "Number of lines to show before each match (rg -B)." })),
  "-A": Type.Optional(Type.Integer({ minimum: 0, description: "Number of lines to show after each match (rg -A)." })),
  "-C": Type.Optional(Type.Integer({ minimum: 0, description: "Number of lines to show before and after each match (rg -C)." })),
  "-i": Type.Optional(Type.Boolean({ default: false, description: "Case insensitive search (rg -i)." })),
  head_limit: Type.Optional(Type.Integer({ minimum: 0, description: 'Limit output to first N lines, equivalent to "| head -N". Defaults to 200 lines.' })),
});
export type HashlineGrepInput = Static<typeof HashlineGrepInput>;

const LineMatch = Type.Object({ line_number: Type.Integer(), content: Type.String() });

/** Output: `{"type":"GrepSearch", stdout, stderr, exit_code, match_count, file_matches}` with anchored stdout. */
export const HashlineGrepOutput = Type.Object({
  type: Type.Literal("GrepSearch"),
  stdout: Type.String(),
  stderr: Type.String(),
  exit_code: Type.Integer(),
  match_count: Type.Integer(),
  file_matches: Type.Array(Type.Object({ path: Type.String(), matches: Type.Array(LineMatch) })),
});
export type HashlineGrepOutput = Static<typeof HashlineGrepOutput>;
