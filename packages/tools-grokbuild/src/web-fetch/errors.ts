/**
 * web_fetch failures as ToolErrors (decision D1) with the reference's `WebFetchError` texts:
 * INVALID_INPUT for bad URLs, PERMISSION_DENIED for SSRF, EXECUTION_FAILED for network and
 * content failures, TIMEOUT for deadlines.
 */
import { ErrorCode, ToolError } from "@grok-tools/runtime";
import { findOnPath } from "@grok-tools/runtime/helpers";

/** Whether `host` looks like GitHub or a GitHub Enterprise host. */
export function isGithubHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === "github.com" || h.endsWith(".github.com") || h.includes("github");
}

/** Whether an executable `gh` is on PATH. */
export function ghAvailable(envPath: string | undefined = process.env.PATH): boolean {
  return findOnPath("gh", { envPath }) !== undefined;
}

/** The recovery hint appended to an SSRF refusal of a GitHub-looking host when `gh` exists. */
export function ssrfRecoveryHint(host: string): string {
  return isGithubHost(host) && ghAvailable() ? ". Use the `gh` CLI instead (e.g. `gh pr view` or `gh api`)." : "";
}

const invalid = (message: string): ToolError => new ToolError(ErrorCode.INVALID_INPUT, message);
const failed = (message: string, details?: unknown, cause?: unknown): ToolError =>
  new ToolError(ErrorCode.EXECUTION_FAILED, message, {
    ...(details === undefined ? {} : { details }),
    ...(cause === undefined ? {} : { cause }),
  });

/** Factories of every web_fetch failure. */
export const WebFetchError = {
  urlTooLong: (max: number) => invalid(`URL exceeds maximum length of ${max} characters`),
  unsupportedScheme: (scheme: string) => invalid(`unsupported URL scheme: ${scheme} (only http/https allowed)`),
  credentialsInUrl: () => invalid("URLs with embedded credentials are not allowed"),
  singleLabelHost: (host: string) => invalid(`hostname must have at least two dot-separated parts, got: ${host}`),
  invalidUrl: (reason: string) => invalid(`invalid URL: ${reason}`),
  ssrfBlocked: (host: string, ip: string) =>
    new ToolError(ErrorCode.PERMISSION_DENIED, `SSRF blocked: ${host} resolves to private/internal IP ${ip}${ssrfRecoveryHint(host)}`, {
      details: { host, ip },
    }),
  dnsResolution: (host: string, reason: string, cause?: unknown) => failed(`DNS resolution failed for ${host}: ${reason}`, { host }, cause),
  dnsEmpty: (host: string) => failed(`DNS resolution returned no addresses for ${host}`, { host }),
  requestFailed: (url: string, cause?: unknown) =>
    new ToolError(ErrorCode.EXECUTION_FAILED, `HTTP request failed: error sending request for url (${url})`, {
      details: { url, cause: causeText(cause) },
      retryable: true,
      cause,
    }),
  bodyFailed: (url: string, cause?: unknown) =>
    new ToolError(ErrorCode.EXECUTION_FAILED, "HTTP request failed: error decoding response body", {
      details: { url, cause: causeText(cause) },
      retryable: true,
      cause,
    }),
  timedOut: (url: string, timeoutMs: number) =>
    new ToolError(ErrorCode.TIMEOUT, `HTTP request failed: error sending request for url (${url})`, {
      details: { url, cause: "operation timed out", timeout_ms: timeoutMs },
      suggestion: "The server did not answer in time; try again later or fetch a smaller page.",
    }),
  invalidRedirect: (reason: string) => failed(`invalid redirect URL: ${reason}`),
  tooManyRedirects: (max: number) => failed(`too many redirects (max ${max})`),
  responseTooLarge: (max: number) => failed(`response body exceeds maximum size of ${max} bytes`),
  saveFailed: (reason: string, cause?: unknown) => failed(`failed to save downloaded file: ${reason}`, undefined, cause),
  unsupportedContentType: (contentType: string, url: string) =>
    failed(`unsupported content type ${contentType} from ${url}`, { content_type: contentType, url }),
  contentTypeMismatch: (contentType: string, url: string) =>
    failed(`content body does not match claimed content type ${contentType} from ${url}`, { content_type: contentType, url }),
};

function causeText(cause: unknown): string | undefined {
  if (cause === undefined) return undefined;
  const code = (cause as NodeJS.ErrnoException).code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code === undefined ? message : `${code}: ${message}`;
}
