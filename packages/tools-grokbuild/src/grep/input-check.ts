/**
 * The argument checks of `grep` before ripgrep starts (issue 23.6): the pattern, path, glob and type
 * go on ripgrep's command line, which can carry neither a NUL byte nor an argument over 64 KiB.
 * Errors name the parameters as the model knows them (after overrides).
 */
import { MAX_ARGUMENT_BYTES, rejectNulByte, rejectOversizedArgument } from "@grok-tools/runtime/helpers";
import { type ToolContext } from "@grok-tools/runtime";
import type { GrepInput } from "./schema.js";

/** Throws INVALID_INPUT for an argument ripgrep could not be given. */
export function checkGrepArguments(input: GrepInput, ctx: Pick<ToolContext, "names">): void {
  const name = (canonical: string) => ctx.names.ownParam(canonical);
  rejectNulByte(input.pattern, name("pattern"), "To match a NUL byte, write \\x00 in the regular expression.");
  for (const field of ["path", "glob", "type"] as const) rejectNulByte(input[field], name(field));
  rejectOversizedArgument(input.pattern, name("pattern"), MAX_ARGUMENT_BYTES, "Search for a shorter, distinctive part of the text.");
  for (const field of ["path", "glob", "type"] as const) rejectOversizedArgument(input[field], name(field));
}
