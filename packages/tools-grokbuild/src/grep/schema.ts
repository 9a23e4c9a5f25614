/** Input, output and params schemas of `GrokBuild:grep` (spec §4.5, §3.4). */
import { Type, type Static } from "@grok-tools/runtime";

const optionalString = (description: string) => Type.Optional(Type.Unsafe<string | null>({ type: ["string", "null"], description }));

/** Input of `grep`. `output_mode` is accepted but kept out of the schema, as in the reference. */
export const GrepInput = Type.Object({
  pattern: Type.String({ description: "The regular expression pattern to search for in file contents (rg --regexp)" }),
  path: optionalString("File or directory to search in (rg pattern -- PATH). Defaults to workspace path."),
  glob: optionalString('Glob pattern (rg --glob GLOB -- PATH) to filter files (e.g. "*.js", "*.{ts,tsx}").'),
  "-B": Type.Optional(Type.Integer({ description: "Number of lines to show before each match (rg -B)." })),
  "-A": Type.Optional(Type.Integer({ description: "Number of lines to show after each match (rg -A)." })),
  "-C": Type.Optional(Type.Integer({ description: "Number of lines to show before and after each match (rg -C)." })),
  "-i": Type.Optional(Type.Boolean({ default: false, description: "Case insensitive search (rg -i)." })),
  type: optionalString("File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than glob for standard file types."),
  head_limit: Type.Optional(
    Type.Integer({
      description: 'Limit output to first N lines/entries, equivalent to "| head -N". Defaults to 200 lines or 500 entries.',
    }),
  ),
  multiline: Type.Optional(
    Type.Boolean({
      default: false,
      description: "Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall).",
    }),
  ),
});
export type GrepInput = Static<typeof GrepInput>;

/** The output modes; `content` unless the hidden `output_mode` key says otherwise. */
export const OUTPUT_MODES = ["content", "files_with_matches", "count"] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

/** Params resource `grok_build.Grep`. */
export const GrepParams = Type.Object(
  {
    max_output_bytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    max_chars_per_line: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type GrepParams = Static<typeof GrepParams>;

const GrepLineMatch = Type.Object({ line_number: Type.Integer(), content: Type.String() });
const GrepFileMatch = Type.Object({ path: Type.String(), matches: Type.Array(GrepLineMatch) });
export type GrepFileMatch = Static<typeof GrepFileMatch>;

/** Output: `{"type":"GrepSearch", stdout, stderr, exit_code, match_count, file_matches}` (text as strings, D6). */
export const GrepOutput = Type.Object({
  type: Type.Literal("GrepSearch"),
  stdout: Type.String(),
  stderr: Type.String(),
  exit_code: Type.Integer(),
  match_count: Type.Integer(),
  file_matches: Type.Array(GrepFileMatch),
});
export type GrepOutput = Static<typeof GrepOutput>;
