/** Model-facing description of `GrokBuildConcise:read_file`, verbatim from the reference (`DESCRIPTION_CONCISE`). */

/** The description template of the concise twin. */
export const READ_FILE_CONCISE_DESCRIPTION = String.raw`Reads a file from the computer's filesystem. You can access any file directly by using this tool.
It is okay to read a file that does not exist; an error will be returned.

Usage:
- You can optionally specify ${"$"}{{ params.read.offset }} and ${"$"}{{ params.read.limit }} (especially handy for long files).
- Lines in the output are numbered starting at 1, using following format: LINE_NUMBER→LINE_CONTENT.
- You have the capability to call multiple tools in a single response. It is always better to speculatively read multiple files as a batch that are potentially useful.`;
