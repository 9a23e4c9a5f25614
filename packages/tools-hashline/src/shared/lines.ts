/** Line splitting of the hashline tools: like `str::lines`, plus the empty line after a final `\n`. */

/** The file's lines: `"a\n"` has two (`a`, ``), an empty file one empty line. */
export function splitLines(content: string): string[] {
  if (content === "") return [""];
  const pieces = content.split("\n");
  if (content.endsWith("\n")) pieces.pop();
  const lines = pieces.map((p) => (p.endsWith("\r") ? p.slice(0, -1) : p));
  if (content.endsWith("\n")) lines.push("");
  return lines;
}

/** `str::lines()` of replacement content (no final empty piece; `\r\n` is one break). */
export function contentLines(content: string): string[] {
  if (content === "") return [];
  const pieces = content.split("\n");
  if (content.endsWith("\n")) pieces.pop();
  return pieces.map((p) => (p.endsWith("\r") ? p.slice(0, -1) : p));
}
