/**
 * web_fetch: validate and upgrade the URL, answer from the session cache, else GET it hop by hop
 * (SSRF check and address pinning on every hop, same-host redirects only), then turn the body into
 * Markdown, a saved media file or a refusal, and bound what goes inline.
 */
import { type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { htmlToMarkdown, isBinaryContentType, isHtml, isImage, isPdf, isVideo, mediaExtension, mediaMagicMatches, stripBase64DataUris } from "./convert.js";
import { WebFetchError } from "./errors.js";
import { webFetchSession, type WebFetchSession } from "./fetch-session.js";
import { httpGet } from "./http-get.js";
import { boundInline, inlineBudget } from "./overflow.js";
import { resolveWebFetchParams, type ResolvedWebFetchParams, type WebFetchOutput, type WebFetchParams } from "./schema.js";
import { checkHost } from "./ssrf.js";
import { isSameHost, upgradeToHttps, validateUrl } from "./url.js";

/** Most redirects followed before giving up. */
export const MAX_REDIRECTS = 10;

type FetchResult =
  { kind: "content"; body: Buffer; contentType: string; finalUrl: string; status: number } | { kind: "cross-host"; originalHost: string; redirectUrl: string };

/** Runs web_fetch. */
export async function executeWebFetch(input: { url: string }, ctx: ToolContext<WebFetchParams>): Promise<ToolResult<WebFetchOutput>> {
  const params = resolveWebFetchParams(ctx.params);
  const state = ctx.session.service(webFetchSession);
  const url = upgradeToHttps(validateUrl(input.url));
  const cacheKey = url.href;
  const cache = state.cache(params.cacheTtlMs, params.maxCacheEntries);
  const cached = cache.get(cacheKey);
  if (cached !== undefined) return { output: cached, promptText: promptOf(cached) };

  const result = await fetchFollowingSameHost(url, params, state, ctx.signal);
  if (result.kind === "cross-host") {
    const output: WebFetchOutput = {
      type: "WebFetch",
      CrossHostRedirect: { original_host: result.originalHost, redirect_url: result.redirectUrl },
    };
    return { output, promptText: promptOf(output) };
  }

  const { body, contentType, finalUrl, status } = result;
  const readTool = ctx.names.tool("read");
  const session = ctx.session;
  const saved = async (store: WebFetchSession["downloads"], ext: string, describe: (path: string) => string) => {
    let filePath: string;
    try {
      filePath = await store.save(session, body, ext);
    } catch (error) {
      throw WebFetchError.saveFailed(error instanceof Error ? error.message : String(error), error);
    }
    const content = describe(filePath);
    const output: WebFetchOutput = {
      type: "WebFetch",
      Content: { url: finalUrl, content, content_type: contentType, status_code: status, bytes: body.length },
    };
    return { output, promptText: content };
  };
  const readHint = readTool === undefined ? "" : ` Use the ${readTool} tool to view its contents.`;

  if (isPdf(contentType)) {
    return saved(state.downloads, "pdf", (p) => `PDF downloaded (${body.length} bytes) and saved to ${p}.${readHint}`);
  }
  if (isImage(contentType)) {
    if (!mediaMagicMatches(contentType, body)) throw WebFetchError.contentTypeMismatch(contentType, finalUrl);
    return saved(state.images, mediaExtension(contentType), (p) => `Image downloaded (${body.length} bytes, ${contentType}) and saved to ${p}.${readHint}`);
  }
  if (isVideo(contentType)) {
    if (!mediaMagicMatches(contentType, body)) throw WebFetchError.contentTypeMismatch(contentType, finalUrl);
    return saved(state.videos, mediaExtension(contentType), (p) => `Video downloaded (${body.length} bytes, ${contentType}) and saved to ${p}.`);
  }
  if (isBinaryContentType(contentType)) throw WebFetchError.unsupportedContentType(contentType, finalUrl);

  const raw = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(body);
  const html = isHtml(contentType);
  const text = stripBase64DataUris(html ? htmlToMarkdown(state.converter, raw) : raw);
  const outputContentType = html ? "markdown" : contentType;
  const bounded = await boundInline({
    content: text,
    budget: inlineBudget(params.contextWindowTokens, params.maxMarkdownLengthBytes),
    contentType: outputContentType,
    session,
    store: state.artifacts,
    tools: { read: readTool, execute: ctx.names.tool("execute") },
    queryTools: state.detectedQueryTools(),
    onSaveError: (error) => ctx.log.warn({ error: String(error) }, "Failed to persist full web_fetch content"),
  });
  const output: WebFetchOutput = {
    type: "WebFetch",
    Content: {
      url: finalUrl,
      content: bounded.content,
      content_type: outputContentType,
      status_code: status,
      bytes: Buffer.byteLength(text, "utf8"),
    },
  };
  cache.insert(cacheKey, output, bounded.truncated);
  return { output, promptText: bounded.content, truncated: bounded.truncated };
}

/** GETs `start`, re-checking SSRF and re-pinning on every hop; stops at a cross-host redirect. */
async function fetchFollowingSameHost(start: URL, params: ResolvedWebFetchParams, state: WebFetchSession, signal: AbortSignal): Promise<FetchResult> {
  let current = start;
  let hops = 0;
  for (;;) {
    // Checked on every hop: a name that was public at the last check may now resolve inward.
    const addresses = await checkHost(current.hostname, params.allowLocal, state.resolver);
    const response = await httpGet({
      url: current,
      addresses,
      timeoutMs: params.timeoutMs,
      maxBodyBytes: params.maxContentLengthBytes,
      signal,
    });
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && location !== undefined) {
      hops += 1;
      if (hops > MAX_REDIRECTS) throw WebFetchError.tooManyRedirects(MAX_REDIRECTS);
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw WebFetchError.invalidRedirect(`invalid URL: ${location}`);
      }
      if (!isSameHost(current, next)) {
        return { kind: "cross-host", originalHost: current.hostname || "unknown", redirectUrl: next.href };
      }
      if (next.protocol !== "http:" && next.protocol !== "https:") {
        throw WebFetchError.invalidRedirect(`unsupported URL scheme: ${next.protocol.replace(/:$/, "")}`);
      }
      // Location may say `http://` and would otherwise downgrade an https fetch.
      current = upgradeToHttps(next);
      continue;
    }
    const header = response.headers["content-type"];
    return {
      kind: "content",
      body: response.body,
      contentType: typeof header === "string" ? header : "text/html",
      finalUrl: current.href,
      status: response.status,
    };
  }
}

/** The model-facing text of an output. */
export function promptOf(output: WebFetchOutput): string {
  if ("Content" in output) return output.Content.content;
  const { original_host: host, redirect_url: redirect } = output.CrossHostRedirect;
  return `Error: cross-host redirect from ${host} to ${redirect}. Make a new web_fetch call with the redirect URL if needed.`;
}
