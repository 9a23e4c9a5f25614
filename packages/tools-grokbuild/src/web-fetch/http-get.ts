/**
 * One HTTP(S) GET pinned to already-checked addresses: a custom `lookup` hands the connection the
 * addresses the SSRF guard approved, so DNS cannot rebind between the check and the connect.
 * No redirects are followed here, no connection is pooled, and the decoded body is capped.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Readable } from "node:stream";
import { WebFetchError } from "./errors.js";
import type { ResolvedAddress } from "./ssrf.js";

/** The reference's User-Agent. */
export const USER_AGENT = "Mozilla/5.0 (compatible; grok-agent/1.0; +https://x.ai)";
/** Accept header preferring markdown, so doc sites that serve it skip HTML conversion. */
export const ACCEPT = "text/markdown,text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const ACCEPT_LANGUAGE = "en-US,en;q=0.9";
const ACCEPT_ENCODING = "gzip, deflate, br";

/** A response head, and its body when read. */
export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Options of {@link httpGet}. */
export interface HttpGetOptions {
  url: URL;
  /** Addresses approved by the SSRF guard; the connection uses only these. */
  addresses: readonly ResolvedAddress[];
  timeoutMs: number;
  maxBodyBytes: number;
  signal: AbortSignal;
}

/** A `lookup` that answers from the approved addresses only. */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = typeof options === "object" && options !== null ? options.family : undefined;
    const usable = addresses.filter((a) => family === undefined || family === 0 || a.family === family);
    const chosen = usable.length > 0 ? usable : addresses;
    if (typeof options === "object" && options !== null && options.all === true) {
      (callback as unknown as (err: null, list: { address: string; family: number }[]) => void)(
        null,
        chosen.map((a) => ({ address: a.address, family: a.family })),
      );
      return;
    }
    const first = chosen[0];
    if (first === undefined) {
      callback(Object.assign(new Error("no approved address"), { code: "ENOTFOUND" }), "", 4);
      return;
    }
    callback(null, first.address, first.family);
  };
}

class TimeoutSignal extends Error {}
class TooLargeSignal extends Error {}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") return response.pipe(createGunzip());
  if (encoding === "deflate") return response.pipe(createInflate());
  if (encoding === "br") return response.pipe(createBrotliDecompress());
  return response;
}

/** Performs one GET; maps failures to web_fetch ToolErrors. */
export function httpGet(options: HttpGetOptions): Promise<HttpResponse> {
  const { url, addresses, timeoutMs, maxBodyBytes, signal } = options;
  const transport = url.protocol === "https:" ? https : http;
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return new Promise<HttpResponse>((resolve, reject) => {
    let settled = false;
    const finish = (error: unknown, value?: HttpResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      if (value !== undefined) resolve(value);
      else reject(error);
    };
    let bodyStarted = false;
    const fail = (error: unknown): void => {
      if (error instanceof TimeoutSignal) finish(WebFetchError.timedOut(url.href, timeoutMs));
      else if (error instanceof TooLargeSignal) finish(WebFetchError.responseTooLarge(maxBodyBytes));
      else if (bodyStarted) finish(WebFetchError.bodyFailed(url.href, error));
      else finish(WebFetchError.requestFailed(url.href, error));
    };
    const request = transport.request({
      protocol: url.protocol,
      hostname,
      port: url.port === "" ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: "GET",
      headers: {
        "user-agent": USER_AGENT,
        accept: ACCEPT,
        "accept-language": ACCEPT_LANGUAGE,
        "accept-encoding": ACCEPT_ENCODING,
      },
      lookup: pinnedLookup(addresses),
      // A fresh connection per hop: a pooled socket could belong to another, unchecked address.
      agent: false,
    });
    const timer = setTimeout(() => {
      fail(new TimeoutSignal());
      request.destroy();
    }, timeoutMs);
    const onAbort = (): void => {
      fail(new Error("cancelled"));
      request.destroy();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
    request.on("error", fail);
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      // A redirect's body is never read: only its Location matters.
      if (status >= 300 && status < 400 && response.headers.location !== undefined) {
        response.resume();
        request.destroy();
        finish(undefined, { status, headers: response.headers, body: Buffer.alloc(0) });
        return;
      }
      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBodyBytes && response.headers["content-encoding"] === undefined) {
        fail(new TooLargeSignal());
        request.destroy();
        return;
      }
      bodyStarted = true;
      const chunks: Buffer[] = [];
      let total = 0;
      const stream = decoded(response);
      stream.on("data", (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxBodyBytes) {
          fail(new TooLargeSignal());
          stream.destroy();
          request.destroy();
          return;
        }
        chunks.push(chunk);
      });
      stream.on("error", fail);
      response.on("error", fail);
      response.on("aborted", () => fail(new Error("connection closed before the body ended")));
      stream.on("end", () => finish(undefined, { status, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.end();
  });
}
