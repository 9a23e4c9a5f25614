/**
 * Loads a tool's model-facing description from the Markdown file beside its module (read once, at
 * module load; the build copies the .md files into dist/). The file's final newline is not part of it.
 */
import { readFileSync } from "node:fs";

/** The text of `description.md` in the folder of the module whose `import.meta.url` is `moduleUrl`. */
export function loadDescription(moduleUrl: string): string {
  const url = new URL("description.md", moduleUrl);
  const text = readFileSync(url, "utf8");
  if (!text.endsWith("\n")) throw new Error(`${url.pathname} must end with a newline (it is not part of the description)`);
  return text.slice(0, -1);
}
