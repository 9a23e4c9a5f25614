/**
 * web_fetch end to end through a session. Fetching paths use a local server on 127.0.0.1 with
 * `allow_local: true`; every other host goes through an injected resolver, and no test ever opens
 * a connection to a non-loopback address.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { Session, ToolRegistry, describeTool } from "@grok-tools/runtime/host";
import { Type, defineNamespace, defineTool } from "@grok-tools/runtime";
import { errorCodeName } from "@grok-tools/runtime/helpers";
import { grokBuild } from "../namespace.js";
import { webFetchSession } from "./fetch-session.js";
import type { ResolvedAddress } from "./ssrf.js";

/** A stand-in read-kind tool, so the "view its contents" hint can be exercised. */
const fakeRead = defineTool({
  id: "read_file",
  kind: "read",
  description: "Read a file.",
  input: Type.Object({}),
  output: Type.Object({ type: Type.Literal("Text") }),
  execute: async () => ({ output: { type: "Text" as const }, promptText: "" }),
});
const testNamespace = defineNamespace({ name: "Test", apiVersion: 1, tools: [fakeRead] });

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

let tmp: string;
let server: http.Server;
let port: number;
let routes: Record<string, Handler>;
let hits: Record<string, number>;
const sessions: Session[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const route = (req.url ?? "/").split("?")[0] ?? "/";
    hits[route] = (hits[route] ?? 0) + 1;
    const handler = routes[route];
    if (handler) handler(req, res);
    else {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "web-fetch-"));
  await mkdir(path.join(tmp, "ws"));
  routes = {};
  hits = {};
});
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  await rm(tmp, { recursive: true, force: true });
});

async function newSession(params: Record<string, unknown> = { allow_local: true }, extraTools: { id: string }[] = []): Promise<Session> {
  const s = new Session({
    registry: ToolRegistry.of([grokBuild, testNamespace]),
    workspace: path.join(tmp, "ws"),
    stateDir: path.join(tmp, `state${sessions.length}`),
  });
  sessions.push(s);
  const result = await s.finalize({ tools: [{ id: "GrokBuild:web_fetch", paramsJson: JSON.stringify(params) }, ...extraTools] });
  if (!result.ok) throw new Error(result.message);
  return s;
}

async function fetchUrl(s: Session, url: string) {
  return s.execute({ toolName: "web_fetch", inputJson: JSON.stringify({ url }) });
}

async function expectError(s: Session, url: string, code: string, message: string): Promise<void> {
  const r = await fetchUrl(s, url);
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect({ code: errorCodeName(r.error.code), message: r.error.message }).toEqual({ code, message });
}

/** A resolver answering from a table; unknown names fail like the OS does. */
function fakeResolver(table: Record<string, string[] | (() => string[])>, calls: string[] = []) {
  return async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname);
    const entry = table[hostname];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    const list = typeof entry === "function" ? entry() : entry;
    return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

const local = (p: string) => `http://127.0.0.1:${port}${p}`;

describe("GrokBuild:web_fetch fetching (local server, allow_local)", () => {
  test("HTML becomes Markdown without scripts, styles or page chrome", async () => {
    routes["/page"] = (_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        "<html><head><title>T</title><style>p{}</style></head><body><nav>menu</nav><h1>Hello</h1>" +
          '<p>World <a href="/x">link</a></p><script>evil()</script><div class="cookie-banner">cookies</div>' +
          '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="></body></html>',
      );
    };
    const s = await newSession();
    const r = await fetchUrl(s, local("/page"));
    if (!r.ok) throw new Error(r.error.message);
    const content = "# Hello\n\nWorld [link](/x)\n\n![]([base64 image/png data removed])";
    expect(r.promptText).toBe(content);
    expect(JSON.parse(r.outputJson)).toEqual({
      type: "WebFetch",
      Content: { url: local("/page"), content, content_type: "markdown", status_code: 200, bytes: Buffer.byteLength(content) },
    });
  });

  test("sends the reference's headers and decodes gzip", async () => {
    let seen: http.IncomingHttpHeaders = {};
    routes["/gz"] = (req, res) => {
      seen = req.headers;
      res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
      res.end(gzipSync("plain text body"));
    };
    const s = await newSession();
    const r = await fetchUrl(s, local("/gz"));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.promptText).toBe("plain text body");
    expect(JSON.parse(r.outputJson).Content.content_type).toBe("text/plain");
    expect(seen["user-agent"]).toBe("Mozilla/5.0 (compatible; grok-agent/1.0; +https://x.ai)");
    expect(seen.accept).toBe("text/markdown,text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
  });

  test("a non-2xx answer is content with its status", async () => {
    const s = await newSession();
    const r = await fetchUrl(s, local("/missing"));
    if (!r.ok) throw new Error(r.error.message);
    expect(JSON.parse(r.outputJson).Content.status_code).toBe(404);
    expect(r.promptText).toBe("not found");
  });

  test("same-host redirects are followed and the final URL is reported", async () => {
    routes["/a"] = (_req, res) => {
      res.writeHead(302, { location: "/b" });
      res.end();
    };
    routes["/b"] = (_req, res) => {
      res.writeHead(301, { location: `http://127.0.0.1:${port}/c` });
      res.end();
    };
    routes["/c"] = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("arrived");
    };
    const s = await newSession();
    const r = await fetchUrl(s, local("/a"));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.promptText).toBe("arrived");
    expect(JSON.parse(r.outputJson).Content.url).toBe(local("/c"));
  });

  test("a cross-host redirect is reported, not followed (even to a private address)", async () => {
    routes["/away"] = (_req, res) => {
      res.writeHead(302, { location: "http://10.0.0.1/admin" });
      res.end();
    };
    const s = await newSession();
    const r = await fetchUrl(s, local("/away"));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.promptText).toBe("Error: cross-host redirect from 127.0.0.1 to http://10.0.0.1/admin. Make a new web_fetch call with the redirect URL if needed.");
    expect(JSON.parse(r.outputJson)).toEqual({
      type: "WebFetch",
      CrossHostRedirect: { original_host: "127.0.0.1", redirect_url: "http://10.0.0.1/admin" },
    });
  });

  test("more than 10 redirects fail", async () => {
    routes["/loop"] = (_req, res) => {
      res.writeHead(302, { location: "/loop" });
      res.end();
    };
    const s = await newSession();
    await expectError(s, local("/loop"), "EXECUTION_FAILED", "too many redirects (max 10)");
    expect(hits["/loop"]).toBe(11);
  });

  test("a body over max_content_length fails (declared or streamed)", async () => {
    routes["/big"] = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("x".repeat(2000));
    };
    routes["/big-chunked"] = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "transfer-encoding": "chunked" });
      res.write("y".repeat(1500));
      res.end("y".repeat(1500));
    };
    const s = await newSession({ allow_local: true, max_content_length: 1000 });
    await expectError(s, local("/big"), "EXECUTION_FAILED", "response body exceeds maximum size of 1000 bytes");
    await expectError(s, local("/big-chunked"), "EXECUTION_FAILED", "response body exceeds maximum size of 1000 bytes");
  });

  test("a server that does not answer within timeout_secs is a TIMEOUT", async () => {
    routes["/slow"] = () => undefined;
    const s = await newSession({ allow_local: true, timeout_secs: 1 });
    await expectError(s, local("/slow"), "TIMEOUT", `HTTP request failed: error sending request for url (${local("/slow")})`);
  });

  test("a refused connection is EXECUTION_FAILED", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const s = await newSession();
    const url = `http://127.0.0.1:${deadPort}/`;
    await expectError(s, url, "EXECUTION_FAILED", `HTTP request failed: error sending request for url (${url})`);
  });

  test("binary types are refused, PDFs are saved in the session folder", async () => {
    routes["/zip"] = (_req, res) => {
      res.writeHead(200, { "content-type": "application/zip" });
      res.end(Buffer.from([0x50, 0x4b, 3, 4]));
    };
    routes["/doc.pdf"] = (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end("%PDF-1.4 test");
    };
    const s = await newSession({ allow_local: true }, [{ id: "Test:read_file" }]);
    await expectError(s, local("/zip"), "EXECUTION_FAILED", `unsupported content type application/zip from ${local("/zip")}`);
    const r = await fetchUrl(s, local("/doc.pdf"));
    if (!r.ok) throw new Error(r.error.message);
    const saved = path.join(s.sessionDir, "downloads", "1.pdf");
    expect(r.promptText).toBe(`PDF downloaded (13 bytes) and saved to ${saved}. Use the read_file tool to view its contents.`);
    expect(await readFile(saved, "utf8")).toBe("%PDF-1.4 test");
  });

  test("an image whose bytes do not match its type is refused; a real one is saved", async () => {
    routes["/fake.png"] = (_req, res) => {
      res.writeHead(200, { "content-type": "image/png" });
      res.end("<html>not an image</html>");
    };
    routes["/real.png"] = (_req, res) => {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]));
    };
    const s = await newSession();
    await expectError(s, local("/fake.png"), "EXECUTION_FAILED", `content body does not match claimed content type image/png from ${local("/fake.png")}`);
    const r = await fetchUrl(s, local("/real.png"));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.promptText).toBe(`Image downloaded (6 bytes, image/png) and saved to ${path.join(s.sessionDir, "images", "1.png")}.`);
  });

  test("long pages keep a bounded preview and the full text in a session file", async () => {
    const body = Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n");
    routes["/long"] = (_req, res) => {
      res.writeHead(200, { "content-type": "text/markdown" });
      res.end(body);
    };
    const s = await newSession({ allow_local: true, max_markdown_length: 400 });
    s.service(webFetchSession).queryTools = {};
    const r = await fetchUrl(s, local("/long"));
    if (!r.ok) throw new Error(r.error.message);
    const saved = path.join(s.sessionDir, "web_fetch", "1.md");
    expect(await readFile(saved, "utf8")).toBe(body);
    const footer = `\n\n[web_fetch content truncated: showing first ${400 - `\n\n[web_fetch content truncated: showing first 400 of ${body.length} bytes. Full content saved to: ${saved}.]`.length} of ${body.length} bytes. Full content saved to: ${saved}.]`;
    expect(r.promptText.endsWith(footer)).toBe(true);
    expect(Buffer.byteLength(r.promptText)).toBeLessThanOrEqual(400);
    expect(body.startsWith(r.promptText.slice(0, r.promptText.length - footer.length))).toBe(true);
    expect(JSON.parse(r.outputJson).Content.bytes).toBe(body.length);
    // Truncated results point at a file, so they are fetched again rather than cached.
    await fetchUrl(s, local("/long"));
    expect(hits["/long"]).toBe(2);
  });

  test("the session cache answers repeated fetches until the TTL passes", async () => {
    routes["/cached"] = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`hit ${hits["/cached"]}`);
    };
    const s = await newSession();
    const first = await fetchUrl(s, local("/cached"));
    const second = await fetchUrl(s, local("/cached"));
    expect(first.ok && second.ok && first.promptText === "hit 1" && second.promptText === "hit 1").toBe(true);
    expect(hits["/cached"]).toBe(1);
    const other = await newSession({ allow_local: true, cache_ttl_secs: 0 });
    await fetchUrl(other, local("/cached"));
    const again = await fetchUrl(other, local("/cached"));
    expect(again.ok && again.promptText).toBe("hit 3");
  });
});

describe("GrokBuild:web_fetch SSRF guard", () => {
  test.each([
    ["http://127.0.0.1:1/", "127.0.0.1", "127.0.0.1"],
    ["http://[::1]:1/", "[::1]", "::1"],
    ["http://10.1.2.3/", "10.1.2.3", "10.1.2.3"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254", "169.254.169.254"],
    ["http://100.64.0.1/", "100.64.0.1", "100.64.0.1"],
    ["http://192.168.1.1/", "192.168.1.1", "192.168.1.1"],
    ["http://0.0.0.0/", "0.0.0.0", "0.0.0.0"],
    ["http://224.0.0.1/", "224.0.0.1", "224.0.0.1"],
    // Numeric shorthands are normalized by the URL parser before the guard sees them.
    ["http://2130706433/", "127.0.0.1", "127.0.0.1"],
    ["http://0x7f.1/", "127.0.0.1", "127.0.0.1"],
    ["http://0xa9fea9fe/", "169.254.169.254", "169.254.169.254"],
  ])("refuses %s by default", async (url, host, ip) => {
    const s = await newSession({});
    await expectError(s, url, "PERMISSION_DENIED", `SSRF blocked: ${host} resolves to private/internal IP ${ip}`);
  });

  test("IPv6 literals other than ::1 are refused before any lookup (the reference's host-label rule)", async () => {
    const s = await newSession({ allow_local: true });
    for (const host of ["[fd00::1]", "[fe80::1]", "[::ffff:a00:1]", "[::ffff:7f00:1]"]) {
      await expectError(s, `http://${host}/`, "INVALID_INPUT", `hostname must have at least two dot-separated parts, got: ${host}`);
    }
  });

  test("allow_local opens explicit loopback only, never private or metadata addresses", async () => {
    const s = await newSession({ allow_local: true });
    await expectError(s, "http://10.0.0.1/", "PERMISSION_DENIED", "SSRF blocked: 10.0.0.1 resolves to private/internal IP 10.0.0.1");
    await expectError(s, "http://169.254.169.254/", "PERMISSION_DENIED", "SSRF blocked: 169.254.169.254 resolves to private/internal IP 169.254.169.254");
  });

  test("a host name resolving to a private address is refused before any connection", async () => {
    const s = await newSession({ allow_local: true });
    const calls: string[] = [];
    s.service(webFetchSession).resolver = fakeResolver(
      {
        "internal.example.com": ["10.0.0.5"],
        "mixed.example.com": ["93.184.216.34", "fd00::1"],
        "rebind.example.com": ["127.0.0.1"],
        "mapped.example.com": ["::ffff:192.168.0.1"],
      },
      calls,
    );
    await expectError(s, "https://internal.example.com/x", "PERMISSION_DENIED", "SSRF blocked: internal.example.com resolves to private/internal IP 10.0.0.5");
    // ANY blocked address refuses the request.
    await expectError(s, "https://mixed.example.com/", "PERMISSION_DENIED", "SSRF blocked: mixed.example.com resolves to private/internal IP fd00::1");
    // allow_local does not open loopback to a public name (DNS rebinding).
    await expectError(s, "http://rebind.example.com/", "PERMISSION_DENIED", "SSRF blocked: rebind.example.com resolves to private/internal IP 127.0.0.1");
    await expectError(
      s,
      "http://mapped.example.com/",
      "PERMISSION_DENIED",
      "SSRF blocked: mapped.example.com resolves to private/internal IP ::ffff:192.168.0.1",
    );
    expect(calls).toEqual(["internal.example.com", "mixed.example.com", "rebind.example.com", "mapped.example.com"]);
  });

  test("every redirect hop is checked again: a name that rebinds to a private address mid-fetch is refused", async () => {
    routes["/hop"] = (_req, res) => {
      res.writeHead(302, { location: "/secret" });
      res.end();
    };
    routes["/secret"] = (_req, res) => res.end("must not be reached");
    const s = await newSession({ allow_local: true });
    const answers = [["127.0.0.1"], ["10.0.0.7"]];
    s.service(webFetchSession).resolver = fakeResolver({ localhost: () => answers.shift() ?? [] });
    await expectError(s, `http://localhost:${port}/hop`, "PERMISSION_DENIED", "SSRF blocked: localhost resolves to private/internal IP 10.0.0.7");
    expect(hits["/hop"]).toBe(1);
    expect(hits["/secret"]).toBeUndefined();
  });

  test("the connection goes to the checked address, not to a second lookup", async () => {
    routes["/pinned"] = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("pinned");
    };
    const s = await newSession({ allow_local: true });
    const calls: string[] = [];
    s.service(webFetchSession).resolver = fakeResolver({ localhost: ["127.0.0.1"] }, calls);
    const ok = await fetchUrl(s, `http://localhost:${port}/pinned`);
    expect(ok.ok && ok.promptText).toBe("pinned");
    expect(calls).toEqual(["localhost"]);
    // The system resolver would say 127.0.0.1 (where the server listens); the checked answer wins.
    const other = await newSession({ allow_local: true });
    other.service(webFetchSession).resolver = fakeResolver({ localhost: ["127.0.0.3"] });
    const url = `http://localhost:${port}/pinned`;
    await expectError(other, url, "EXECUTION_FAILED", `HTTP request failed: error sending request for url (${url})`);
    expect(hits["/pinned"]).toBe(1);
  });

  test("DNS failures are execution failures with the OS wording", async () => {
    const s = await newSession({});
    s.service(webFetchSession).resolver = fakeResolver({ "empty.example.com": [] });
    await expectError(
      s,
      "https://nowhere.example.com/",
      "EXECUTION_FAILED",
      "DNS resolution failed for nowhere.example.com: failed to lookup address information: Name or service not known",
    );
    await expectError(s, "https://empty.example.com/", "EXECUTION_FAILED", "DNS resolution returned no addresses for empty.example.com");
  });
});

describe("GrokBuild:web_fetch description", () => {
  test("the template names the tool by its client name", async () => {
    const s = new Session({ registry: ToolRegistry.of([grokBuild]), workspace: path.join(tmp, "ws"), stateDir: path.join(tmp, "sd") });
    sessions.push(s);
    await s.finalize({ tools: [{ id: "GrokBuild:web_fetch", nameOverride: "fetch_url" }] });
    expect(describeTool(s, "fetch_url")?.description).toBe(
      "Fetch the content of a specific URL and return it as markdown.\n\n" +
        "IMPORTANT: fetch_url WILL FAIL for authenticated or private URLs (e.g. Google Docs, Confluence, Jira, GitHub private repos). Use specialized MCP tools for those instead.\n\n" +
        "Usage notes:\n  - HTTP URLs will be automatically upgraded to HTTPS\n  - Long pages will be truncated to fit your context window",
    );
  });
});

describe("GrokBuild:web_fetch URL validation", () => {
  test.each([
    ["not a url", "invalid URL: relative URL without a base"],
    ["", "invalid URL: relative URL without a base"],
    ["http://", "invalid URL: empty host"],
    ["ftp://example.com/file.txt", "unsupported URL scheme: ftp (only http/https allowed)"],
    ["file:///etc/passwd", "unsupported URL scheme: file (only http/https allowed)"],
    ["data:text/html,<h1>hi</h1>", "unsupported URL scheme: data (only http/https allowed)"],
    ["https://user:pass@example.com/foo", "URLs with embedded credentials are not allowed"],
    ["https://admin@example.com/foo", "URLs with embedded credentials are not allowed"],
    ["http://intranet/foo", "hostname must have at least two dot-separated parts, got: intranet"],
    ["http://metadata/computeMetadata", "hostname must have at least two dot-separated parts, got: metadata"],
    [`https://example.com/${"a".repeat(1981)}`, "URL exceeds maximum length of 2000 characters"],
  ])("%#: the URL is invalid input (%s)", async (url, message) => {
    const s = await newSession({});
    await expectError(s, url, "INVALID_INPUT", message);
  });

  test("a URL of exactly 2000 bytes passes validation (and meets the guard)", async () => {
    const s = await newSession({});
    s.service(webFetchSession).resolver = fakeResolver({ "example.com": ["10.9.9.9"] });
    const url = `https://example.com/${"a".repeat(1980)}`;
    expect(Buffer.byteLength(url)).toBe(2000);
    await expectError(s, url, "PERMISSION_DENIED", "SSRF blocked: example.com resolves to private/internal IP 10.9.9.9");
  });

  test("params: unknown keys and proxy_endpoint are refused at finalize", async () => {
    const s = new Session({ registry: ToolRegistry.of([grokBuild]), workspace: path.join(tmp, "ws"), stateDir: path.join(tmp, "sp") });
    sessions.push(s);
    const unknown = await s.finalize({ tools: [{ id: "GrokBuild:web_fetch", paramsJson: JSON.stringify({ allow_locals: true }) }] });
    expect(unknown.ok).toBe(false);
    const s2 = new Session({ registry: ToolRegistry.of([grokBuild]), workspace: path.join(tmp, "ws"), stateDir: path.join(tmp, "sq") });
    sessions.push(s2);
    const proxy = await s2.finalize({ tools: [{ id: "GrokBuild:web_fetch", paramsJson: JSON.stringify({ proxy_endpoint: "http://proxy.corp:3128" }) }] });
    expect(proxy.ok).toBe(false);
    expect(JSON.stringify(proxy)).toContain("proxy_endpoint is not supported by this server");
  });
});
