/**
 * Loads a tool's model-facing description from the Markdown file beside its module. Read once, at
 * module load; the build copies the .md files into dist/ next to the compiled module.
 */
import { readFileSync } from "node:fs";

/**
 * The text of `file` (default `description.md`) in the folder of the module whose `import.meta.url`
 * is `moduleUrl`. The file ends with one newline that editors and Git expect and that is not part of
 * the description; everything before it is the description, byte for byte.
 */
export function loadDescription(moduleUrl: string, file = "description.md"): string {
  const url = new URL(file, moduleUrl);
  const text = readFileSync(url, "utf8");
  if (!text.endsWith("\n")) throw new Error(`${url.pathname} must end with a newline (it is not part of the description)`);
  return text.slice(0, -1);
}
