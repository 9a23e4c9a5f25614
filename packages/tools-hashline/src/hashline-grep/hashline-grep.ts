/**
 * `GrokBuildHashline:hashline_grep`: ripgrep content search (inside the checked search root) whose
 * match and context lines carry the same anchors hashline_read shows (`N:ANCHOR:text` for a match,
 * `N:ANCHOR-text` for context), so a match can be edited without reading the file first.
 */
import path from "node:path";
import { ErrorCode, ToolError, defineTool, type ToolContext } from "@grok-tools/runtime";
import { resolveModelPath } from "@grok-tools/runtime/fs";
import { coerceKeys, lenientBool, lenientOptionalInteger } from "@grok-tools/runtime/helpers";
import { loadDescription } from "../shared/description.js";
import { splitLines } from "../shared/lines.js";
import { HASHLINE_PARAMS_SPEC, renderExamples, schemeOf, type HashlineSchemeParams } from "../shared/params.js";
import { readTextFile } from "../shared/read-text.js";
import { SearchRootMissing, runSearch } from "../shared/ripgrep.js";
import { anchorSuffix, type Anchor, type AnchorScheme } from "../shared/scheme.js";
import { HashlineGrepInput, HashlineGrepOutput } from "./schema.js";

const TEMPLATE = loadDescription(import.meta.url);
/** Output lines kept when no head_limit is given. */
export const DEFAULT_HEAD_LIMIT = 200;

function ripgrepArgs(input: HashlineGrepInput, at: string): string[] {
  const args = ["--heading", "--with-filename", "--line-number", "--color=never", "--no-messages", "--sort=path"];
  if (input["-i"] === true) args.push("--ignore-case");
  if (input.glob) args.push("--glob", input.glob);
  if (input.type) args.push("--type", input.type);
  for (const flag of ["-C", "-B", "-A"] as const) {
    const n = input[flag];
    if (n !== undefined && n > 0) args.push(flag, String(n));
  }
  args.push("--max-filesize", "5M", "-e", input.pattern, "--", at);
  return args;
}

/** `123:text` / `45-text` → [line, separator, text]. */
function parseNumbered(line: string): [number, ":" | "-", string] | undefined {
  const m = /^(\d+)([:-])/.exec(line);
  return m ? [Number(m[1]), m[2] as ":" | "-", line.slice(m[0].length)] : undefined;
}

async function anchorsOf(ctx: ToolContext, cache: Map<string, Anchor[] | undefined>, file: string, scheme: AnchorScheme): Promise<Anchor[] | undefined> {
  if (!cache.has(file)) {
    const read = await readTextFile(ctx, file, file, "GrepSearch", "FileReadError").catch(() => undefined);
    cache.set(file, read === undefined ? undefined : scheme.anchors(splitLines(read.text)));
  }
  return cache.get(file);
}

/** What the model can do about it decides the code: only a pattern, glob or type that ripgrep refused is bad input. */
const BAD_INPUT = /regex parse error|error parsing glob|unrecognized file type|unrecognized flag/i;

/**
 * The error for ripgrep's exit 2 with nothing found. Not every such exit is the model's input: the search
 * folder can change or vanish while the search starts (the search-root launcher says so), and `--no-messages`
 * hides read errors, leaving stderr empty; calling those a bad pattern sends the model to fix what is not broken.
 * @internal Exported for tests.
 */
export function ripgrepFailure(stderr: string, given: string): ToolError {
  const said = stderr.trim();
  if (BAD_INPUT.test(said))
    return new ToolError(ErrorCode.INVALID_INPUT, `rg failed: ${said}`, { suggestion: "Check the regular expression and the filters." });
  const message =
    said === ""
      ? `rg failed: the search of ${given === "" ? "the workspace" : given} could not be completed (a file or folder changed or could not be read while it ran)`
      : `rg failed: ${said}`;
  return new ToolError(ErrorCode.EXECUTION_FAILED, message, { suggestion: "Search again; if it fails again, search a narrower path." });
}

async function runGrep(input: HashlineGrepInput, ctx: ToolContext) {
  const scheme = schemeOf(ctx.params as HashlineSchemeParams);
  const given = input.path ?? "";
  const searchPath = given === "" ? ctx.cwd : resolveModelPath(ctx.cwd, given);
  let stdout: string;
  let stderr = "";
  let exitCode: number;
  try {
    const run = await runSearch(ctx, searchPath, given === "" ? searchPath : given, (at) => ripgrepArgs(input, at));
    ({ stdout, stderr, exitCode } = run);
  } catch (error) {
    if (!(error instanceof SearchRootMissing)) throw error;
    const message = `Error: ${searchPath} does not exist.`;
    throw new ToolError(ErrorCode.FILE_NOT_FOUND, message, {
      filePath: given,
      suggestion: "Check the path, or search from the workspace root.",
      details: { type: "GrepSearch", stdout: message, stderr: "", exit_code: 2, match_count: 0, file_matches: [] },
    });
  }
  if (exitCode === 2 && stdout.trim() === "") throw ripgrepFailure(stderr, given);
  const headLimit = input.head_limit ?? DEFAULT_HEAD_LIMIT;
  const all = stdout.split("\n");
  if (all.at(-1) === "") all.pop();
  const kept = headLimit === 0 ? all : all.slice(0, headLimit);
  const truncated = kept.length < all.length;

  const cache = new Map<string, Anchor[] | undefined>();
  const body: string[] = [];
  const files: { path: string; matches: { line_number: number; content: string }[] }[] = [];
  let current: string | undefined;
  let matchCount = 0;
  for (const line of kept) {
    if (line === "") {
      current = undefined;
      body.push(line);
      continue;
    }
    if (line === "--") {
      body.push(line);
      continue;
    }
    const numbered = current === undefined ? undefined : parseNumbered(line);
    if (numbered === undefined || current === undefined) {
      current = line;
      const shown = path.relative(ctx.cwd, line);
      body.push(shown !== "" && !shown.startsWith("..") ? shown : line);
      files.push({ path: body.at(-1)!, matches: [] });
      continue;
    }
    const [n, sep, text] = numbered;
    const anchors = await anchorsOf(ctx, cache, current, scheme);
    const anchor = anchors?.[n - 1];
    body.push(anchor === undefined ? line : `${n}:${anchorSuffix(anchor)}${sep}${text}`);
    if (sep === ":") {
      matchCount++;
      files.at(-1)!.matches.push({ line_number: n, content: text });
    }
  }
  while (body.at(-1) === "") body.pop();
  const header = matchCount === 0 ? "No matches found" : `Found ${truncated ? "at least " : ""}${matchCount} matching line${matchCount === 1 ? "" : "s"}`;
  const text = matchCount === 0 ? header : `<workspace_result workspace_path="${ctx.cwd}">\n${header}\n${body.join("\n")}\n</workspace_result>`;
  return {
    output: {
      type: "GrepSearch" as const,
      stdout: text,
      stderr,
      exit_code: matchCount === 0 ? 1 : 0,
      match_count: matchCount,
      file_matches: files.filter((f) => f.matches.length > 0),
    },
    promptText: text,
    truncated,
  };
}

/** The `hashline_grep` tool definition. */
export const hashlineGrep = defineTool({
  id: "hashline_grep",
  kind: "search",
  description: ({ params }) => renderExamples(TEMPLATE, params),
  shortDescription: "Search file contents with line anchors",
  input: HashlineGrepInput,
  output: HashlineGrepOutput,
  outputFields: {
    stdout: { description: "The anchored matches", potentiallyLarge: true },
    file_matches: { description: "The matches by file", potentiallyLarge: true },
  },
  params: HASHLINE_PARAMS_SPEC,
  capabilities: { supportsCancellation: true },
  normalizeInput: (raw) => coerceKeys(coerceKeys(raw, ["-i"], lenientBool), ["-A", "-B", "-C", "head_limit"], lenientOptionalInteger),
  execute: (input, ctx) => runGrep(input, ctx),
});
