/**
 * Codex:read_file: reads a file as `L{n}: ` lines, a slice or an indentation-aware block.
 */
import { defineTool } from "@grok-tools/runtime";
import { lenientBool } from "@grok-tools/runtime/helpers";
import { loadDescription } from "../shared/description.js";
import { executeReadFile } from "./execute.js";
import { CodexReadFileInput, CodexReadFileOutput } from "./schema.js";

/** The `Codex:read_file` tool. */
export const readFile = defineTool({
  id: "read_file",
  kind: "read",
  description: loadDescription(import.meta.url),
  shortDescription: "Read a file as L{n}: lines (slice or indentation block)",
  input: CodexReadFileInput,
  output: CodexReadFileOutput,
  outputFields: {
    FileContent: { description: "The lines read, the whole file text, and the line counts.", potentiallyLarge: true },
  },
  normalizeInput: (raw) => {
    const indentation = raw.indentation;
    if (typeof indentation !== "object" || indentation === null || Array.isArray(indentation)) return raw;
    const args = { ...(indentation as Record<string, unknown>) };
    for (const key of ["include_siblings", "include_header"]) if (key in args) args[key] = lenientBool(args[key]);
    return { ...raw, indentation: args };
  },
  execute: executeReadFile,
});
