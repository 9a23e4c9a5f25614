/** Unit tests of the web_fetch building blocks: SSRF classification, URL rules, conversion, overflow, cache. */
import { mkdtemp, readdir, readFile, realpath, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { FetchCache } from "./cache.js";
import { createHtmlConverter, htmlToMarkdown, isBinaryContentType, isHtml, isImage, mediaMagicMatches, stripBase64DataUris } from "./convert.js";
import { isGithubHost } from "./errors.js";
import { pinnedLookup } from "./http-get.js";
import { boundInline, examplesClause, inlineBudget } from "./overflow.js";
import { ErrorCode } from "@grok-tools/runtime";
import { TEMP_JOURNAL_DIR_NAME, temporaryWriterPid } from "@grok-tools/runtime/fs";
import { TempJournal } from "@grok-tools/runtime/fs";
import { SessionFileStore, type SessionFolder } from "./session-files.js";
import { checkHost, displayIp, isBlockedForHost, isExplicitLocalHost, isNonPublicIp } from "./ssrf.js";
import { isSameHost, upgradeToHttps, validateUrl } from "./url.js";
import type { WebFetchOutput } from "./schema.js";

describe("SSRF classification", () => {
  test.each([
    "127.0.0.1",
    "127.255.255.254",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "0.0.0.0",
    "0.1.2.3",
    "224.0.0.1",
    "239.255.255.255",
    "255.255.255.255",
    "240.0.0.1",
    "192.0.0.8",
    "192.0.2.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.1",
    "203.0.113.9",
    "::1",
    "::",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "febf::1",
    "ff02::1",
    "fec0::1",
    "2001:db8::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:a00:1",
    "::10.0.0.1",
    "64:ff9b::a00:1",
    "fe80::1%eth0",
  ])("%s is non-public", (ip) => {
    expect(isNonPublicIp(ip)).toBe(true);
  });

  test.each(["8.8.8.8", "93.184.216.34", "172.15.0.1", "172.32.0.1", "100.63.255.255", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"])(
    "%s is public",
    (ip) => {
      expect(isNonPublicIp(ip)).toBe(false);
    },
  );

  test("unparseable addresses fail closed", () => {
    expect(isNonPublicIp("not-an-ip")).toBe(true);
  });

  test("explicit local hosts: localhost, 127/8 literals and ::1 only", () => {
    for (const host of ["localhost", "LOCALHOST.", "127.0.0.1", "127.1.2.3", "[::1]", "::1"]) expect(isExplicitLocalHost(host)).toBe(true);
    for (const host of ["rebind.example.com", "10.0.0.1", "[::ffff:127.0.0.1]", "localhost.example.com", "0.0.0.0"]) {
      expect(isExplicitLocalHost(host)).toBe(false);
    }
  });

  test("allow_local opens loopback for explicit local hosts only", () => {
    expect(isBlockedForHost("127.0.0.1", "localhost", false)).toBe(true);
    expect(isBlockedForHost("127.0.0.1", "localhost", true)).toBe(false);
    expect(isBlockedForHost("::ffff:127.0.0.1", "localhost", true)).toBe(false);
    expect(isBlockedForHost("127.0.0.1", "evil.example.com", true)).toBe(true);
    expect(isBlockedForHost("10.0.0.1", "localhost", true)).toBe(true);
    expect(isBlockedForHost("169.254.169.254", "localhost", true)).toBe(true);
    expect(isBlockedForHost("93.184.216.34", "example.com", false)).toBe(false);
  });

  test("v4-mapped addresses print with their dotted tail", () => {
    expect(displayIp("::ffff:a00:1")).toBe("::ffff:10.0.0.1");
    expect(displayIp("fd00::1")).toBe("fd00::1");
    expect(displayIp("10.0.0.1")).toBe("10.0.0.1");
  });

  test("checkHost returns the checked addresses and refuses when any is blocked", async () => {
    const resolve = async (host: string) =>
      host === "ok.example.com"
        ? [
            { address: "93.184.216.34", family: 4 as const },
            { address: "2606:2800:220:1::1", family: 6 as const },
          ]
        : [
            { address: "93.184.216.34", family: 4 as const },
            { address: "169.254.169.254", family: 4 as const },
          ];
    await expect(checkHost("ok.example.com", false, resolve)).resolves.toHaveLength(2);
    await expect(checkHost("bad.example.com", false, resolve)).rejects.toMatchObject({
      message: "SSRF blocked: bad.example.com resolves to private/internal IP 169.254.169.254",
    });
  });

  test("GitHub-looking hosts", () => {
    expect(isGithubHost("github.com")).toBe(true);
    expect(isGithubHost("api.github.com")).toBe(true);
    expect(isGithubHost("github.ghe.example.com")).toBe(true);
    expect(isGithubHost("ghe.example.com")).toBe(false);
    expect(isGithubHost("gitlab.example.com")).toBe(false);
  });

  test("the pinned lookup only ever answers with the approved addresses", () => {
    const lookup = pinnedLookup([
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ]);
    const single: unknown[] = [];
    lookup("anything.example.com", { family: 6 }, (err, address, family) => single.push(err, address, family));
    expect(single).toEqual([null, "::1", 6]);
    const all: unknown[] = [];
    lookup("anything.example.com", { all: true }, ((err: unknown, list: unknown) => all.push(err, list)) as never);
    expect(all).toEqual([
      null,
      [
        { address: "127.0.0.1", family: 4 },
        { address: "::1", family: 6 },
      ],
    ]);
  });
});

describe("URL rules", () => {
  test("valid URLs pass", () => {
    expect(validateUrl("https://docs.rs/reqwest/latest").href).toBe("https://docs.rs/reqwest/latest");
    expect(validateUrl("http://example.com/path?q=1#frag").hostname).toBe("example.com");
    expect(validateUrl("http://localhost:8080/foo").hostname).toBe("localhost");
  });

  test("http is upgraded except for explicit loopback hosts", () => {
    expect(upgradeToHttps(new URL("http://example.com/path")).href).toBe("https://example.com/path");
    expect(upgradeToHttps(new URL("http://example.com:80/")).href).toBe("https://example.com/");
    expect(upgradeToHttps(new URL("http://example.com:8080/")).href).toBe("https://example.com:8080/");
    expect(upgradeToHttps(new URL("https://example.com/")).href).toBe("https://example.com/");
    expect(upgradeToHttps(new URL("http://127.0.0.1:8080/")).protocol).toBe("http:");
    expect(upgradeToHttps(new URL("http://localhost:3000/")).protocol).toBe("http:");
  });

  test("hosts are compared exactly (www is another host)", () => {
    expect(isSameHost(new URL("https://example.com/a"), new URL("https://example.com/b"))).toBe(true);
    expect(isSameHost(new URL("https://example.com/a"), new URL("https://www.example.com/a"))).toBe(false);
    expect(isSameHost(new URL("https://example.com/a"), new URL("https://other.com/a"))).toBe(false);
  });
});

describe("content handling", () => {
  test("content-type classes", () => {
    expect(isHtml("text/html; charset=utf-8")).toBe(true);
    expect(isHtml("application/xhtml+xml")).toBe(true);
    expect(isHtml("text/markdown")).toBe(false);
    expect(isImage("image/png")).toBe(true);
    expect(isImage("image/svg+xml")).toBe(false);
    for (const t of ["image/png", "audio/mpeg", "application/octet-stream", "application/zip", "application/wasm", "font/woff2"]) {
      expect(isBinaryContentType(t)).toBe(true);
    }
    for (const t of ["text/plain", "text/csv", "application/json; charset=utf-8", "application/ld+json", "application/yaml"]) {
      expect(isBinaryContentType(t)).toBe(false);
    }
  });

  test("media magic bytes", () => {
    expect(mediaMagicMatches("image/jpeg", Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe(true);
    expect(mediaMagicMatches("image/gif", Buffer.from("GIF89a"))).toBe(true);
    expect(mediaMagicMatches("image/webp", Buffer.from("RIFF\0\0\0\0WEBP"))).toBe(true);
    expect(mediaMagicMatches("video/mp4", Buffer.from("\0\0\0\x18ftypmp42"))).toBe(true);
    expect(mediaMagicMatches("image/png", Buffer.from("<html>"))).toBe(false);
    expect(mediaMagicMatches("image/x-niche", Buffer.from("anything"))).toBe(true);
  });

  test("HTML conversion drops scripts, styles, embeds and chrome", () => {
    const md = htmlToMarkdown(
      createHtmlConverter(),
      '<body><header>top</header><div id="sidebar-left">side</div><h2>Title</h2><ul><li>one</li></ul><iframe src="x"></iframe><noscript>ns</noscript><pre><code>let a = 1;</code></pre><footer>bottom</footer></body>',
    );
    expect(md).toBe("## Title\n\n*   one\n\n```\nlet a = 1;\n```");
  });

  test("base64 data URIs are replaced, look-alikes are kept", () => {
    expect(stripBase64DataUris("img data:image/png;base64,iVBORw0KGgo= end")).toBe("img [base64 image/png data removed] end");
    expect(stripBase64DataUris("x data:;base64,AAAA y")).toBe("x [base64 unknown data removed] y");
    expect(stripBase64DataUris("metadata:image/png;base64,AAAA")).toBe("metadata:image/png;base64,AAAA");
    expect(stripBase64DataUris("data:text/plain,hello")).toBe("data:text/plain,hello");
    expect(stripBase64DataUris("data:image/png;base64,AA")).toBe("data:image/png;base64,AA");
  });
});

describe("overflow", () => {
  let tmp: string;
  /** The test folder as a session folder (its own root). */
  const folder = (): SessionFolder => ({ sessionDir: tmp, roots: [tmp], fsScope: "workspace" });
  beforeEach(async () => {
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), "wf-overflow-")));
  });
  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  test("the inline budget is 3 % of the context window, capped by max_markdown_length", () => {
    expect(inlineBudget(128_000, 100_000)).toEqual({ previewBytes: 15_360, outputBytes: 100_000 });
    expect(inlineBudget(10_000_000, 100_000)).toEqual({ previewBytes: 100_000, outputBytes: 100_000 });
  });

  test("examples clause", () => {
    expect(examplesClause([])).toBe("");
    expect(examplesClause(["`jq`"])).toBe(" (e.g. `jq`)");
    expect(examplesClause(["`jq`", "`python3`"])).toBe(" (e.g. `jq` or `python3`)");
    expect(examplesClause(["`python3`", "`sed`", "`cut`"])).toBe(" (e.g. `python3`, `sed`, or `cut`)");
  });

  const run = (content: string, contentType: string, tools: { read?: string; execute?: string }, withFolder = true) =>
    boundInline({
      content,
      budget: { previewBytes: 100, outputBytes: 600 },
      contentType,
      session: withFolder ? folder() : undefined,
      store: new SessionFileStore("web_fetch"),
      tools: { read: tools.read, execute: tools.execute },
      queryTools: { jq: "jq", python: "python3", sed: "sed", cut: "cut" },
      onSaveError: () => undefined,
    });

  test("content within budget stays inline", async () => {
    expect(await run("short", "markdown", {})).toEqual({ content: "short", truncated: false, artifactPath: undefined });
  });

  test("markdown with a read tool: preview, saved path and read hint", async () => {
    const content = "word ".repeat(100);
    const r = await run(content, "markdown", { read: "read_file", execute: "run_terminal_cmd" });
    const saved = path.join(tmp, "web_fetch", "1.md");
    expect(r.artifactPath).toBe(saved);
    expect(await readFile(saved, "utf8")).toBe(content);
    expect(r.content).toBe(
      `${content.slice(0, 100)}\n\n[web_fetch content truncated: showing first 100 of 500 bytes. Full content saved to: ${saved}. Use \`read_file\` with offsets and limits to read it in chunks.]`,
    );
  });

  test("JSON steers to the execute tool with jq/python examples", async () => {
    const content = JSON.stringify(
      Array.from({ length: 40 }, (_, i) => ({ i })),
      null,
      1,
    );
    const r = await run(content, "application/json", { read: "read_file", execute: "run_terminal_cmd" });
    expect(r.content).toContain(`.json. The saved file is valid JSON; use \`run_terminal_cmd\` to query it (e.g. \`jq\` or \`python3\`).]`);
  });

  test("a very long line steers away from line tools", async () => {
    const r = await run("z".repeat(2500), "text/plain", { read: "read_file", execute: "sh" });
    expect(r.content).toContain(
      ".txt. The saved file is text with a very long line, so line-oriented read and search tools are ineffective on it — use `sh` to slice or search it (e.g. `python3`, `sed`, or `cut`).]",
    );
  });

  test("without a session folder the footer has no path", async () => {
    const r = await run("word ".repeat(100), "markdown", { read: "read_file" }, false);
    expect(r.content.endsWith("\n\n[web_fetch content truncated: showing first 100 of 500 bytes.]")).toBe(true);
    expect(r.artifactPath).toBeUndefined();
  });

  test("numbered files resume after existing ones", async () => {
    const store = new SessionFileStore("downloads");
    expect(path.basename(await store.save(folder(), "a", "pdf"))).toBe("1.pdf");
    expect(path.basename(await store.save(folder(), "b", "pdf"))).toBe("2.pdf");
    const resumed = new SessionFileStore("downloads");
    expect(path.basename(await resumed.save(folder(), "c", "pdf"))).toBe("3.pdf");
  });

  test("saves journal their temporary, leave none behind, and never write through a folder linked out of the roots", async () => {
    const journal = new TempJournal(path.join(tmp, "state"));
    const begun: string[] = [];
    const spy = { begin: async (temp: string) => (begun.push(temp), journal.begin(temp)) } as unknown as TempJournal;
    const saved = await new SessionFileStore("web_fetch").save({ ...folder(), tempJournal: spy }, "page", "md");
    expect(await readFile(saved, "utf8")).toBe("page");
    expect(begun.map((temp) => [path.dirname(temp), temporaryWriterPid(path.basename(temp))])).toEqual([[path.join(tmp, "web_fetch"), process.pid]]);
    expect(await readdir(path.join(tmp, "web_fetch"))).toEqual(["1.md"]);
    expect(await readdir(path.join(tmp, "state", TEMP_JOURNAL_DIR_NAME))).toEqual([]);
    const outside = await mkdtemp(path.join(os.tmpdir(), "web-fetch-outside-"));
    try {
      await symlink(outside, path.join(tmp, "images"));
      await expect(new SessionFileStore("images").save(folder(), "png", "png")).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
      expect(await readdir(outside)).toEqual([]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe("FetchCache", () => {
  const page = (content: string): WebFetchOutput => ({
    type: "WebFetch",
    Content: { url: "https://example.com/", content, content_type: "markdown", status_code: 200, bytes: content.length },
  });

  test("entries expire after the TTL and the oldest is evicted at the cap", () => {
    let now = 0;
    const cache = new FetchCache(1000, 2, () => now);
    cache.insert("a", page("A"), false);
    now = 10;
    cache.insert("b", page("B"), false);
    now = 500;
    cache.insert("c", page("C"), false);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toEqual(page("B"));
    now = 1010;
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("c")).toEqual(page("C"));
  });

  test("truncated results are never cached", () => {
    const cache = new FetchCache(1000, 2);
    cache.insert("a", page("/sessions/a/web_fetch/1.md"), true);
    expect(cache.get("a")).toBeUndefined();
  });
});
