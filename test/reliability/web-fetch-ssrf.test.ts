// web_fetch SSRF (issue #19): every spelling of a loopback or private address, names that resolve
// there, redirects to them and non-http schemes are refused, against an HTTP server this test
// starts on loopback, which must never be reached. A control proves the server is reachable.
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { ErrorCode } from "@grok-tools/proto";
import type { SpawnedServer } from "@grok-tools/client";
import { lookup } from "node:dns/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import { check } from "../../scripts/suite-report.mjs";
import { makeRoot, startWorkspaceServer, type TestRoot } from "./lib/server.js";

let root: TestRoot;
let guarded: SpawnedServer;
let local: SpawnedServer;
let target: http.Server;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  target = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    const redirect = /^\/redirect\?to=(.*)$/.exec(req.url ?? "");
    if (redirect) {
      res.writeHead(302, { location: decodeURIComponent(redirect[1]!) });
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("LOOPBACK-SECRET");
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  port = (target.address() as AddressInfo).port;
  root = await makeRoot("gtr-ssrf-");
  guarded = await startWorkspaceServer(root, { tools: [{ id: "GrokBuild:web_fetch" }] });
  // allow_local opens explicit loopback hosts only (localhost, 127/8, ::1): the control, and the
  // start of redirect chains that must still be refused at their next hop.
  local = await startWorkspaceServer(
    { ...root, stateDir: `${root.stateDir}-local` },
    { tools: [{ id: "GrokBuild:web_fetch", paramsJson: '{"allow_local":true}' }] },
  );
}, 60_000);

afterAll(async () => {
  await guarded?.close();
  await local?.close();
  await new Promise((resolve) => target?.close(resolve));
  await root?.remove();
});

async function refused(server: SpawnedServer, url: string, codes: ErrorCode[]): Promise<string | undefined> {
  const before = hits.length;
  const result = await server.client.executeTool("web_fetch", { url });
  const reached = hits.length > before;
  // A cross-host redirect is not followed: the model is told where it points (as the reference does).
  if (
    result.ok &&
    url.includes("/redirect?") &&
    result.promptText.startsWith("Error: cross-host redirect from ") &&
    !result.promptText.includes("LOOPBACK-SECRET")
  )
    return undefined;
  if (result.ok) return `${url}: fetched (${result.promptText.slice(0, 60)})`;
  if (reached && !url.includes("/redirect?")) return `${url}: refused, but the loopback server was reached`;
  if (!codes.includes(result.error.code)) return `${url}: ${ErrorCode[result.error.code]} ${result.error.message}`;
  if (result.error.message.includes("LOOPBACK-SECRET")) return `${url}: the secret leaked into the error`;
  return undefined;
}

it("refuses every form of a loopback or private address, and names resolving there", async () => {
  await check("web_fetch: private address forms refused", async () => {
    const P = port;
    const forms = [
      `http://127.0.0.1:${P}/`,
      `http://localhost:${P}/`,
      `http://LOCALHOST:${P}/`,
      `http://localhost.:${P}/`,
      `http://127.0.0.1.:${P}/`,
      `http://2130706433:${P}/`, // decimal
      `http://0x7f000001:${P}/`, // hex
      `http://0x7f.0.0.1:${P}/`,
      `http://0177.0.0.1:${P}/`, // octal
      `http://017700000001:${P}/`,
      `http://127.1:${P}/`, // short
      `http://127.0.1:${P}/`,
      `http://127.000.000.001:${P}/`,
      `http://0:${P}/`,
      `http://0.0.0.0:${P}/`,
      `http://[::1]:${P}/`,
      `http://[0:0:0:0:0:0:0:1]:${P}/`,
      `http://[::ffff:127.0.0.1]:${P}/`, // IPv4-mapped
      `http://[::ffff:7f00:1]:${P}/`,
      `http://[::127.0.0.1]:${P}/`, // IPv4-compatible
      `http://[64:ff9b::127.0.0.1]:${P}/`, // NAT64
      `http://[::]:${P}/`,
      `http://[fe80::1]:${P}/`,
      `http://[fc00::1]:${P}/`,
      `http://[fd12:3456::1]:${P}/`,
      `http://[::ffff:10.0.0.1]:${P}/`,
      `http://10.0.0.1:${P}/`,
      `http://172.16.0.1:${P}/`,
      `http://192.168.1.1:${P}/`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://100.64.0.1/`,
      `http://user:pass@127.0.0.1:${P}/`,
      `http://127.0.0.1%2509:${P}/`,
      `https://127.0.0.1:${P}/`,
    ];
    // Names that resolve to loopback with no network: this machine's own name (from /etc/hosts,
    // when it points at a non-public address) and localhost subdomains where the resolver maps them.
    for (const name of [hostname(), "localhost.localdomain", "ip6-localhost"]) {
      const address = await lookup(name).then(
        (a) => a.address,
        () => undefined,
      );
      if (address !== undefined && /^(127\.|10\.|192\.168\.|::1$)/.test(address)) forms.push(`http://${name}:${P}/`);
      else console.log(`(web_fetch: ${name} does not resolve to a private address here; not part of this run)`);
    }
    const problems: string[] = [];
    for (const url of forms) {
      const problem = await refused(guarded, url, [ErrorCode.ERROR_CODE_PERMISSION_DENIED, ErrorCode.ERROR_CODE_INVALID_INPUT]);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
    expect(hits).toEqual([]);
    return forms.length;
  });
}, 120_000);

it("refuses non-http schemes", async () => {
  await check("web_fetch: non-http schemes refused", async () => {
    const urls = [
      "file:///etc/passwd",
      `ftp://127.0.0.1:${port}/`,
      `gopher://127.0.0.1:${port}/_GET`,
      "data:text/plain,hello",
      "javascript:alert(1)",
      `ws://127.0.0.1:${port}/`,
      `dict://127.0.0.1:${port}/`,
      "about:blank",
      `//127.0.0.1:${port}/`,
      `127.0.0.1:${port}`,
    ];
    const problems: string[] = [];
    for (const url of urls) {
      const problem = await refused(local, url, [ErrorCode.ERROR_CODE_INVALID_INPUT, ErrorCode.ERROR_CODE_PERMISSION_DENIED]);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
    return urls.length;
  });
}, 60_000);

it("follows no redirect to a private address, another spelling of loopback, or another scheme", async () => {
  await check("web_fetch: redirects to private addresses refused", async () => {
    // Control: with allow_local the explicit loopback host is fetched, so the test can see a leak.
    const control = await local.client.executeTool("web_fetch", { url: `http://127.0.0.1:${port}/control` });
    expect(control.ok && control.promptText).toContain("LOOPBACK-SECRET");
    const targets = [
      `http://10.0.0.1:${port}/leak`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://[::ffff:127.0.0.1]:${port}/leak`,
      `http://${hostname()}:${port}/leak`,
      "file:///etc/passwd",
      `gopher://127.0.0.1:${port}/_x`,
    ];
    const problems: string[] = [];
    for (const to of targets) {
      const start = `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(to)}`;
      const problem = await refused(local, start, [
        ErrorCode.ERROR_CODE_PERMISSION_DENIED,
        ErrorCode.ERROR_CODE_INVALID_INPUT,
        ErrorCode.ERROR_CODE_EXECUTION_FAILED,
      ]);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
    expect(hits.filter((h) => h.startsWith("/leak"))).toEqual([]);
    return targets.length + 1;
  });
}, 60_000);
