/**
 * Large web_fetch results: an inline preview bounded by `max_markdown_length` and ~3 % of the
 * context window, the full text persisted to `<session>/web_fetch/<n>.<ext>`, and a footer that
 * says where it is and how to read it (the reference's texts).
 */
import { truncateUtf8 } from "@grok-tools/runtime/helpers";
import type { SessionFileStore, SessionFolder } from "./session-files.js";

const WEB_FETCH_CONTEXT_FRACTION = 0.03;
const BYTES_PER_TOKEN = 4;
const LONG_LINE_BYTES = 2_000;
const RECOVERY_FOOTER_PREFIX = "\n\n[web_fetch content truncated:";

/** Byte budgets of the inline text. */
export interface InlineBudget {
  previewBytes: number;
  outputBytes: number;
}

/** The budget for a context window and `max_markdown_length`. */
export function inlineBudget(contextWindowTokens: number, maxMarkdownLength: number): InlineBudget {
  const contextBudget = Math.floor(contextWindowTokens * BYTES_PER_TOKEN * WEB_FETCH_CONTEXT_FRACTION);
  return { previewBytes: Math.min(contextBudget, maxMarkdownLength), outputBytes: maxMarkdownLength };
}

/** Client names of the tools the recovery hint may point at. */
export interface RecoveryTools {
  read: string | undefined;
  execute: string | undefined;
}

/** Command-line helpers found on PATH, for the examples in the hint (`jq`, `python3`, `sed`, `cut`). */
export interface QueryTools {
  jq?: string;
  python?: string;
  sed?: string;
  cut?: string;
}

type PayloadFormat = "markdown" | "json" | "jsonl" | "text";
const EXTENSION: Record<PayloadFormat, string> = { markdown: "md", json: "json", jsonl: "jsonl", text: "txt" };
const JSONL_TYPES = new Set(["application/x-ndjson", "application/ndjson", "application/jsonl", "text/jsonl", "text/x-jsonl"]);

interface Classification {
  format: PayloadFormat;
  hasLongLine: boolean;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text.trim());
    return true;
  } catch {
    return false;
  }
}

function classify(contentType: string, text: string): Classification {
  const mime = (contentType.split(";")[0] ?? contentType).trim().toLowerCase();
  let format: PayloadFormat;
  if (mime === "markdown" || mime === "text/markdown") format = "markdown";
  else if (JSONL_TYPES.has(mime)) format = "jsonl";
  else if (mime === "application/json" || mime === "text/json" || mime.endsWith("+json") || isJson(text)) format = "json";
  else format = "text";
  const hasLongLine = text.split("\n").some((line) => Buffer.byteLength(line.replace(/\r$/, ""), "utf8") > LONG_LINE_BYTES);
  return { format, hasLongLine };
}

const wrap = (names: (string | undefined)[]): string[] => names.filter((n): n is string => n !== undefined).map((n) => `\`${n}\``);

/** ` (e.g. a)`, ` (e.g. a or b)`, ` (e.g. a, b, or c)`. */
export function examplesClause(tools: readonly string[]): string {
  if (tools.length === 0) return "";
  if (tools.length === 1) return ` (e.g. ${tools[0]})`;
  if (tools.length === 2) return ` (e.g. ${tools[0]} or ${tools[1]})`;
  return ` (e.g. ${tools.slice(0, -1).join(", ")}, or ${tools[tools.length - 1]})`;
}

function readSteer(read: string | undefined): string {
  return read === undefined ? "" : ` Use \`${read}\` with offsets and limits to read it in chunks.`;
}

function steer(c: Classification, tools: RecoveryTools, query: QueryTools): string {
  const jsonTools = wrap([query.jq, query.python]);
  const textTools = wrap([query.python, query.sed, query.cut]);
  if (c.hasLongLine) {
    if (tools.execute === undefined) return "";
    const [format, action, examples] =
      c.format === "json"
        ? ["valid JSON", "query", jsonTools]
        : c.format === "jsonl"
          ? ["JSON Lines", "query", jsonTools]
          : c.format === "markdown"
            ? ["Markdown", "slice or search", textTools]
            : ["text", "slice or search", textTools];
    return ` The saved file is ${format} with a very long line, so line-oriented read and search tools are ineffective on it — use \`${tools.execute}\` to ${action} it${examplesClause(examples)}.`;
  }
  if (c.format === "json" || c.format === "jsonl") {
    if (tools.execute === undefined) return readSteer(tools.read);
    const kind = c.format === "json" ? "valid JSON" : "JSON Lines";
    return ` The saved file is ${kind}; use \`${tools.execute}\` to query it${examplesClause(jsonTools)}.`;
  }
  const read = readSteer(tools.read);
  if (read !== "") return read;
  return tools.execute === undefined ? "" : ` Use \`${tools.execute}\` to inspect it${examplesClause(textTools)}.`;
}

function footer(shownBytes: number, totalBytes: number, fileHint: string): string {
  return `${RECOVERY_FOOTER_PREFIX} showing first ${shownBytes} of ${totalBytes} bytes.${fileHint}]`;
}

function renderWithHint(content: string, budget: InlineBudget, totalBytes: number, fileHint: string): string | undefined {
  const provisional = Buffer.byteLength(footer(budget.previewBytes, totalBytes, fileHint), "utf8");
  if (provisional > budget.outputBytes) return undefined;
  const preview = truncateUtf8(content, Math.min(budget.previewBytes, budget.outputBytes - provisional)).text;
  const output = preview + footer(Buffer.byteLength(preview, "utf8"), totalBytes, fileHint);
  return Buffer.byteLength(output, "utf8") <= budget.outputBytes ? output : undefined;
}

function genericMarker(content: string, budget: InlineBudget): string {
  const marker = ["\n\n[web_fetch output truncated]", "[truncated]", "..."].find((m) => m.length <= budget.outputBytes);
  if (marker === undefined) return "";
  return truncateUtf8(content, Math.min(budget.previewBytes, budget.outputBytes - marker.length)).text + marker;
}

function boundedOutput(
  content: string,
  budget: InlineBudget,
  totalBytes: number,
  savedPath: string | undefined,
  c: Classification,
  tools: RecoveryTools,
  query: QueryTools,
): string {
  if (savedPath !== undefined) {
    const pathHint = ` Full content saved to: ${savedPath}.`;
    const steerText = steer(c, tools, query);
    if (steerText !== "") {
      const out = renderWithHint(content, budget, totalBytes, pathHint + steerText);
      if (out !== undefined) return out;
    }
    const out = renderWithHint(content, budget, totalBytes, pathHint);
    if (out !== undefined) return out;
  } else {
    const out = renderWithHint(content, budget, totalBytes, "");
    if (out !== undefined) return out;
  }
  return genericMarker(content, budget);
}

/** Result of {@link boundInline}. */
export interface OverflowResult {
  content: string;
  truncated: boolean;
  artifactPath: string | undefined;
}

/** Keeps `content` inline when it fits; otherwise persists it and returns a preview with a recovery footer. */
export async function boundInline(options: {
  content: string;
  budget: InlineBudget;
  contentType: string;
  /** Where to persist content that does not fit; undefined: nowhere (the footer then has no path). */
  session: SessionFolder | undefined;
  store: SessionFileStore;
  tools: RecoveryTools;
  queryTools: QueryTools;
  onSaveError: (error: unknown) => void;
}): Promise<OverflowResult> {
  const { content, budget } = options;
  const totalBytes = Buffer.byteLength(content, "utf8");
  if (totalBytes <= Math.min(budget.previewBytes, budget.outputBytes)) {
    return { content, truncated: false, artifactPath: undefined };
  }
  const c = classify(options.contentType, content);
  let savedPath: string | undefined;
  if (options.session !== undefined) {
    try {
      savedPath = await options.store.save(options.session, content, EXTENSION[c.format]);
    } catch (error) {
      options.onSaveError(error);
    }
  }
  return {
    content: boundedOutput(content, budget, totalBytes, savedPath, c, options.tools, options.queryTools),
    truncated: true,
    artifactPath: savedPath,
  };
}
