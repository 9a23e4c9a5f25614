/** URL checks of web_fetch: length, scheme, credentials, host labels, the https upgrade and host equality. */
import { WebFetchError } from "./errors.js";
import { isExplicitLocalHost } from "./ssrf.js";

/** Longest accepted URL, in bytes (the reference measures `str::len`). */
export const MAX_URL_LENGTH_CHARS = 2_000;

const SCHEME_PREFIX = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** The reference's (`url` crate) wording of why a string is not a URL. */
function parseFailureReason(raw: string): string {
  if (!SCHEME_PREFIX.test(raw.trim())) return "relative URL without a base";
  const afterScheme = raw.trim().replace(SCHEME_PREFIX, "");
  const authority = afterScheme.replace(/^\/+/, "").split(/[/?#]/)[0] ?? "";
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  if (hostPort === "") return "empty host";
  if (hostPort.startsWith("[")) return "invalid IPv6 address";
  if (/:[^:\]]*$/.test(hostPort) && !/:\d{0,5}$/.test(hostPort)) return "invalid port number";
  if (/:\d+$/.test(hostPort) && Number(hostPort.slice(hostPort.lastIndexOf(":") + 1)) > 65_535) return "invalid port number";
  return "invalid domain character";
}

/** Validates scheme, length, credentials and host labels; returns the parsed URL. */
export function validateUrl(raw: string): URL {
  if (Buffer.byteLength(raw, "utf8") > MAX_URL_LENGTH_CHARS) throw WebFetchError.urlTooLong(MAX_URL_LENGTH_CHARS);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw WebFetchError.invalidUrl(parseFailureReason(raw));
  }
  const scheme = parsed.protocol.replace(/:$/, "");
  if (scheme !== "http" && scheme !== "https") throw WebFetchError.unsupportedScheme(scheme);
  if (parsed.username !== "" || parsed.password !== "") throw WebFetchError.credentialsInUrl();
  // `localhost` is single-label; SSRF still needs allow_local for explicit local hosts.
  if (parsed.hostname.split(".").length < 2 && !isExplicitLocalHost(parsed.hostname)) {
    throw WebFetchError.singleLabelHost(parsed.hostname);
  }
  return parsed;
}

/** Upgrades `http` to `https`, except for explicit loopback hosts (local dev servers speak plain HTTP). */
export function upgradeToHttps(url: URL): URL {
  if (url.protocol !== "http:" || isExplicitLocalHost(url.hostname)) return url;
  const upgraded = new URL(url.href);
  upgraded.protocol = "https:";
  return upgraded;
}

/** Exact host equality (no `www.` folding): a different name may resolve elsewhere. */
export function isSameHost(a: URL, b: URL): boolean {
  return a.hostname === b.hostname;
}
