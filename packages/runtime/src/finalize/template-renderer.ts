/**
 * Renders description templates (spec §2.8): Jinja-style `${{ }}` / `${% %}` / `${# #}` through
 * nunjucks, adjusted to behave like the reference's MiniJinja, then the plain
 * `{max_output_bytes}`-style placeholders. Does not decide which text a tool gets.
 *
 * MiniJinja differences handled here: an attribute of an undefined value is an error (nunjucks
 * returns undefined), one trailing newline of the template is dropped (MiniJinja's default
 * `keep_trailing_newline = false`), a stray `#}` in plain text is literal text (nunjucks rejects
 * it), and only `${{` / `${%` trigger rendering (the fast path).
 */
import { createRequire } from "node:module";
import type nunjucksModule from "nunjucks";

// nunjucks is loaded on the first render (issue #18: start-up and idle memory pay only for what a
// session uses; most calls render nothing). It is CommonJS, so a lazy require keeps renders synchronous.
let environment: nunjucksModule.Environment | undefined;

/** The nunjucks environment, created (and nunjucks' runtime patched) on first use. */
function nunjucksEnvironment(): nunjucksModule.Environment {
  if (environment) return environment;
  const nunjucks = createRequire(import.meta.url)("nunjucks") as typeof nunjucksModule;
  environment = new nunjucks.Environment(null, {
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
  patchRuntime((nunjucks as unknown as { runtime: NunjucksRuntime }).runtime);
  return environment;
}

// nunjucks compiles `a.b` to `runtime.memberLookup(a, "b")`. While one of our renders runs
// (renders are synchronous), a lookup on undefined or null throws, as MiniJinja's does.
// Outside our renders the original behaviour is kept for any other nunjucks user.
// Likewise a printed null reads `none`, as MiniJinja prints it (nunjucks prints nothing).
let strictLookups = 0;
interface NunjucksRuntime {
  memberLookup: (obj: unknown, key: unknown) => unknown;
  suppressValue: (value: unknown, autoescape: boolean) => unknown;
}
function patchRuntime(runtime: NunjucksRuntime): void {
  const originalMemberLookup = runtime.memberLookup;
  const originalSuppressValue = runtime.suppressValue;
  runtime.memberLookup = function strictMemberLookup(this: unknown, obj: unknown, key: unknown): unknown {
    if (strictLookups > 0 && (obj === undefined || obj === null)) {
      throw new TemplateRenderError(`undefined value has no attribute ${String(key)}`);
    }
    return originalMemberLookup.call(this, obj, key);
  };
  runtime.suppressValue = function minijinjaSuppressValue(this: unknown, value: unknown, autoescape: boolean): unknown {
    return originalSuppressValue.call(this, strictLookups > 0 && value === null ? "none" : value, autoescape);
  };
}

/** A template that could not be rendered (syntax error, attribute of an undefined value). */
export class TemplateRenderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TemplateRenderError";
  }
}

/** A stand-in for a literal `#}` outside comments while nunjucks lexes the text. */
const HASH_BRACE_SENTINEL = "\uE000\uE001";

/**
 * Removes every complete `${{…}}` and `${%…%}` span, like the reference's fallback: a `${` that
 * starts no marker, and an unterminated marker, are kept as they are.
 */
export function stripTemplateMarkers(text: string): string {
  let out = "";
  let rest = text;
  for (;;) {
    const start = rest.indexOf("${");
    if (start === -1) break;
    const after = rest.slice(start + 2);
    let close = -1;
    if (after.startsWith("{")) {
      const i = after.indexOf("}}");
      close = i === -1 ? -1 : i + 2;
    } else if (after.startsWith("%")) {
      const i = after.indexOf("%}");
      close = i === -1 ? -1 : i + 2;
    }
    if (close === -1) {
      out += rest.slice(0, start + 2);
      rest = rest.slice(start + 2);
    } else {
      out += rest.slice(0, start);
      rest = rest.slice(start + 2 + close);
    }
  }
  return out + rest;
}

/** Whether a text needs rendering at all: the reference renders only texts with `${{` or `${%`. */
export function hasTemplateMarkers(text: string): boolean {
  return text.includes("${{") || text.includes("${%");
}

/** Renders a template, throwing {@link TemplateRenderError} on failure. */
export function renderTemplateStrict(text: string, context: Record<string, unknown>): string {
  if (!hasTemplateMarkers(text)) return text;
  let source = text;
  if (source.endsWith("\n")) source = source.slice(0, -1);
  if (source.endsWith("\r")) source = source.slice(0, -1);
  source = protectStrayCommentEnds(source);
  strictLookups++;
  try {
    return nunjucksEnvironment().renderString(source, context).replaceAll(HASH_BRACE_SENTINEL, "#}");
  } catch (error) {
    if (error instanceof TemplateRenderError) throw error;
    throw new TemplateRenderError(error instanceof Error ? error.message : String(error), { cause: error });
  } finally {
    strictLookups--;
  }
}

/**
 * Renders a template; on failure returns `onError(text)`, by default the text with its markers
 * stripped, so template syntax never reaches a model.
 */
export function renderTemplate(
  text: string,
  context: Record<string, unknown>,
  onError: (raw: string, error: unknown) => string = (raw) => stripTemplateMarkers(raw),
): string {
  try {
    return renderTemplateStrict(text, context);
  } catch (error) {
    return onError(text, error);
  }
}

/** Replaces each `#}` that does not close a `${#` comment with a sentinel nunjucks ignores. */
function protectStrayCommentEnds(text: string): string {
  if (!text.includes("#}")) return text;
  let out = "";
  let i = 0;
  while (i < text.length) {
    const comment = text.indexOf("${#", i);
    const stray = text.indexOf("#}", i);
    if (stray === -1) break;
    if (comment !== -1 && comment < stray) {
      const end = text.indexOf("#}", comment + 3);
      if (end === -1) break;
      out += text.slice(i, end + 2);
      i = end + 2;
      continue;
    }
    out += text.slice(i, stray) + HASH_BRACE_SENTINEL;
    i = stray + 2;
  }
  return out + text.slice(i);
}

/** `600000 (~10 min)`, `45000 (~45 s)`: the `{max_wait_ms}` rendering (rounding down). */
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
