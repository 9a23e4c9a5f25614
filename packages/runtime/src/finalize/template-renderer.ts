/**
 * Renders description templates (spec §2.8): Jinja-style `${{ }}` / `${% %}` / `${# #}`
 * through nunjucks with those delimiters, then the plain `{max_output_bytes}`-style
 * placeholders. A render failure falls back to the text with every marker removed, so
 * template syntax never reaches a model.
 */
import nunjucks from "nunjucks";

const environment = new nunjucks.Environment(null, {
  autoescape: false,
  throwOnUndefined: false,
  trimBlocks: false,
  lstripBlocks: false,
  tags: {
    blockStart: "${%",
    blockEnd: "%}",
    variableStart: "${{",
    variableEnd: "}}",
    commentStart: "${#",
    commentEnd: "#}",
  },
});

/** Removes every complete `${{…}}`, `${%…%}` and `${#…#}` span; lone or unterminated markers stay. */
export function stripTemplateMarkers(text: string): string {
  return text.replace(/\$\{\{[\s\S]*?\}\}|\$\{%[\s\S]*?%\}|\$\{#[\s\S]*?#\}/g, "");
}

/** Whether a text has template markers at all (the fast path skips rendering). */
export function hasTemplateMarkers(text: string): boolean {
  return text.includes("${{") || text.includes("${%") || text.includes("${#");
}

/** Renders a template; on any failure returns `onError(text)` (markers stripped by default). */
export function renderTemplate(
  text: string,
  context: Record<string, unknown>,
  onError: (raw: string, error: unknown) => string = (raw) => stripTemplateMarkers(raw),
): string {
  if (!hasTemplateMarkers(text)) return text;
  try {
    return environment.renderString(text, context);
  } catch (error) {
    return onError(text, error);
  }
}

/** `600000 (~10 min)`, `45000 (~45 s)`: the `{max_wait_ms}` rendering. */
export function formatMaxWait(ms: number): string {
  if (ms < 60_000) return `${ms} (~${Math.floor(ms / 1000)} s)`;
  return `${ms} (~${Math.floor(ms / 60_000)} min)`;
}

/** Values of the plain placeholders. */
export interface PlaceholderValues {
  maxOutputBytes: number;
  maxLinesRead: number;
  maxWaitMs: number;
  maxCharsPerLine: number;
}

/** Substitutes `{max_output_bytes}`, `{max_lines_read}`, `{max_wait_ms}` and `{max_chars_per_line}`. */
export function substitutePlaceholders(text: string, values: PlaceholderValues): string {
  return text
    .replaceAll("{max_output_bytes}", String(values.maxOutputBytes))
    .replaceAll("{max_lines_read}", String(values.maxLinesRead))
    .replaceAll("{max_wait_ms}", formatMaxWait(values.maxWaitMs))
    .replaceAll("{max_chars_per_line}", String(values.maxCharsPerLine));
}
