/**
 * Prompt text of Codex:read_file: the `L{n}: ` lines, or a note when no line was returned.
 */

/** What the model sees for a read. */
export function formatReadPrompt(content: string, totalLines: number, offset: number): string {
  if (content !== "") return content;
  if (totalLines === 0) return "File is empty.";
  if (offset > totalLines) {
    return `(no lines returned: the requested window is past the end of the file; the file has ${totalLines} lines)`;
  }
  return "(no lines returned)";
}
