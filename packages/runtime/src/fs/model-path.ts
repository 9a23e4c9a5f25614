/**
 * Turns a path argument written by a model into an absolute path (spec §4.0 `resolve_model_path`):
 * clean-up, `~` expansion, joining onto the cwd and the dropped-leading-slash repair. No confinement here.
 */
import os from "node:os";

/**
 * Strips surrounding whitespace and quotes; when the argument was quote-wrapped (a pasted string
 * literal), also strips trailing literal `\n`, `\r`, `\t` escape sequences.
 */
export function sanitizeModelPathArg(input: string): string {
  const trimmed = input.trim();
  const isQuote = (c: string | undefined): boolean => c === '"' || c === "'";
  const quoteWrapped = trimmed.length >= 2 && isQuote(trimmed[0]) && isQuote(trimmed[trimmed.length - 1]);
  const unquoted = trimmed.replace(/^["']+|["']+$/g, "").trim();
  if (!quoteWrapped) return unquoted;
  let result = unquoted;
  for (;;) {
    const stripped = result.endsWith("\\n") || result.endsWith("\\r") || result.endsWith("\\t") ? result.slice(0, -2) : undefined;
    if (stripped === undefined) return result;
    result = stripped.trimEnd();
  }
}

/** Expands a leading `~` or `~/` to the home folder (`~user` is left alone). */
export function expandTilde(input: string, home?: string): string {
  // The home folder is asked for only when used: most paths have no `~` (#18).
  if (input === "~") return home ?? os.homedir();
  if (input.startsWith("~/")) return joinPath(home ?? os.homedir(), input.slice(2));
  return input;
}

/**
 * The absolute path a model argument names, relative to `cwd`. The path is not normalised
 * lexically (`a/link/..` stays as written) so that the kernel resolves it, as the reference does.
 */
export function resolveModelPath(cwd: string, input: string, home?: string): string {
  const expanded = expandTilde(sanitizeModelPathArg(input), home);
  if (expanded.startsWith("/")) return expanded;
  // A model that dropped the leading slash of an absolute path inside cwd: "work/ws/a" with cwd /work/ws.
  // Most relative paths differ from cwd in their first component: no split of either then (#18).
  const cwdHead = firstComponent(cwd);
  if (expanded !== "" && (cwdHead === undefined || firstComponent(expanded) === cwdHead)) {
    const asAbsolute = components(`/${expanded}`);
    const base = components(cwd);
    if (asAbsolute.length >= base.length && base.every((part, i) => asAbsolute[i] === part)) {
      return joinPath(cwd, asAbsolute.slice(base.length).join("/"));
    }
  }
  return joinPath(cwd, expanded);
}

/** Path components the way Rust's `Path::components` sees them (empty and interior `.` parts dropped). */
function components(p: string): string[] {
  return p.split("/").filter((part) => part !== "" && part !== ".");
}

/** The first of {@link components}, or undefined when there is none. */
function firstComponent(p: string): string | undefined {
  let start = 0;
  while (start < p.length) {
    const slash = p.indexOf("/", start);
    const end = slash === -1 ? p.length : slash;
    const part = p.slice(start, end);
    if (part !== "" && part !== ".") return part;
    start = end + 1;
  }
  return undefined;
}

/** `base/rest` without lexical normalisation (Rust `Path::join`). */
function joinPath(base: string, rest: string): string {
  if (rest === "") return base.endsWith("/") ? base : `${base}/`;
  return base.endsWith("/") ? `${base}${rest}` : `${base}/${rest}`;
}
