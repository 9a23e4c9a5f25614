/**
 * Schemas of GrokBuild:web_fetch: the `{url}` input, the `WebFetch` output (`Content` or
 * `CrossHostRedirect`, the reference's serde shape) and the `grok_build.WebFetch` params (§3.4).
 */
import { Type, type Static } from "@grok-tools/runtime";

/** Input of web_fetch. */
export const WebFetchInput = Type.Object({
  url: Type.String({ description: "The URL to fetch content from." }),
});
export type WebFetchInput = Static<typeof WebFetchInput>;

/** A fetched page. */
export const WebFetchContent = Type.Object({
  url: Type.String({ description: "The final URL (may differ from the input after redirects)." }),
  content: Type.String({ description: "Page content converted to markdown (or raw text for non-HTML)." }),
  content_type: Type.String({ description: '"markdown" for converted HTML, or the original MIME type.' }),
  status_code: Type.Integer({ description: "HTTP status code." }),
  bytes: Type.Integer({ description: "Size of the content in bytes (before truncation)." }),
});
export type WebFetchContent = Static<typeof WebFetchContent>;

/** Output of web_fetch. */
export const WebFetchOutput = Type.Union([
  Type.Object({ type: Type.Literal("WebFetch"), Content: WebFetchContent }),
  Type.Object({
    type: Type.Literal("WebFetch"),
    CrossHostRedirect: Type.Object({ original_host: Type.String(), redirect_url: Type.String() }),
  }),
]);
export type WebFetchOutput = Static<typeof WebFetchOutput>;

const OptionalCount = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]);

/** `grok_build.WebFetch` params; null means "use the built-in default". Unknown keys are refused. */
export const WebFetchParams = Type.Object(
  {
    cache_ttl_secs: OptionalCount,
    max_cache_entries: OptionalCount,
    timeout_secs: OptionalCount,
    max_content_length: OptionalCount,
    max_markdown_length: OptionalCount,
    context_window_tokens: OptionalCount,
    allowed_domains: Type.Union([Type.Array(Type.String()), Type.Null()]),
    proxy_endpoint: Type.Union([Type.String(), Type.Null()]),
    allow_local: Type.Union([Type.Boolean(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type WebFetchParams = Static<typeof WebFetchParams>;

/** Every params field with its default (all unset). */
export const WEB_FETCH_PARAMS_DEFAULTS: WebFetchParams = {
  cache_ttl_secs: null,
  max_cache_entries: null,
  timeout_secs: null,
  max_content_length: null,
  max_markdown_length: null,
  context_window_tokens: null,
  allowed_domains: null,
  proxy_endpoint: null,
  allow_local: null,
};

/** Built-in defaults of the unset params. */
export const DEFAULT_CACHE_TTL_SECS = 900;
export const DEFAULT_MAX_CACHE_ENTRIES = 128;
export const DEFAULT_TIMEOUT_SECS = 60;
export const DEFAULT_MAX_CONTENT_LENGTH_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_MARKDOWN_LENGTH_BYTES = 100_000;
export const DEFAULT_CONTEXT_WINDOW_TOKENS = 128_000;

/** Params with their defaults applied. */
export interface ResolvedWebFetchParams {
  cacheTtlMs: number;
  maxCacheEntries: number;
  timeoutMs: number;
  maxContentLengthBytes: number;
  maxMarkdownLengthBytes: number;
  contextWindowTokens: number;
  allowLocal: boolean;
}

/** Applies the defaults. */
export function resolveWebFetchParams(p: WebFetchParams): ResolvedWebFetchParams {
  return {
    cacheTtlMs: (p.cache_ttl_secs ?? DEFAULT_CACHE_TTL_SECS) * 1000,
    maxCacheEntries: p.max_cache_entries ?? DEFAULT_MAX_CACHE_ENTRIES,
    timeoutMs: (p.timeout_secs ?? DEFAULT_TIMEOUT_SECS) * 1000,
    maxContentLengthBytes: p.max_content_length ?? DEFAULT_MAX_CONTENT_LENGTH_BYTES,
    maxMarkdownLengthBytes: p.max_markdown_length ?? DEFAULT_MAX_MARKDOWN_LENGTH_BYTES,
    contextWindowTokens: p.context_window_tokens ?? DEFAULT_CONTEXT_WINDOW_TOKENS,
    allowLocal: p.allow_local ?? false,
  };
}
