// GrokBuild:read_file through a session: paths, windows, kinds, the tracker, gitignore and cursor rules.
import { execFileSync } from "node:child_process";
import { mkdtemp, mkdir, realpath, rm, symlink, writeFile, unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode, Type, defineNamespace, defineTool } from "@grok-tools/runtime";
import { FILE_READ_TRACKER, PATH_LOCKS, readTracker } from "@grok-tools/runtime/fs";
import { Session, ToolRegistry, type ExecuteOutcome, type ToolConfigInput } from "@grok-tools/runtime/host";
import { grokBuild, grokBuildConcise } from "../namespace.js";
import { GITIGNORE_POLICY } from "../shared/gitignore.js";
import { extractFileContentLines, resolveReadStartLine } from "./window.js";
import { isSkillMarkdown } from "../shared/paths.js";
import { isBinary, imageMimeType } from "./file-kind.js";
import { tryExtractBase64Images } from "./inline-images.js";
import { mapReadError } from "./execute.js";

const fakeTool = (id: string, kind: "execute" | "search") =>
  defineTool({
    id,
    kind,
    description: id,
    input: Type.Object({}),
    output: Type.Object({ type: Type.Literal("Text") }),
    execute: async () => ({ output: { type: "Text" as const }, promptText: "" }),
  });
const fakes = defineNamespace({ name: "Fake", apiVersion: 1, tools: [fakeTool("shell", "execute"), fakeTool("search_code", "search")] });

let base: string;
let ws: string;
let sessions: Session[] = [];

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "read-file-test-")));
  ws = path.join(base, "ws");
  await mkdir(ws);
});
afterEach(async () => {
  for (const s of sessions) await s.close();
  sessions = [];
  await rm(base, { recursive: true, force: true });
});

async function session(tools: ToolConfigInput[] = [{ id: "GrokBuild:read_file" }], extra: { maxLinesRead?: number } = {}): Promise<Session> {
  const s = new Session({ registry: ToolRegistry.of([grokBuild, grokBuildConcise, fakes]), workspace: ws, stateDir: path.join(base, "state") });
  sessions.push(s);
  const outcome = await s.finalize({ tools, ...(extra.maxLinesRead === undefined ? {} : { truncation: { maxLinesRead: extra.maxLinesRead } }) });
  if (!outcome.ok) throw new Error(outcome.message);
  return s;
}

async function read(s: Session, input: Record<string, unknown>, toolName = "read_file"): Promise<ExecuteOutcome> {
  return s.execute({ toolName, inputJson: JSON.stringify(input) });
}

function errorOf(outcome: ExecuteOutcome): { code: number; message: string } {
  if (outcome.ok) throw new Error(`expected an error, got ${outcome.promptText}`);
  return outcome.error;
}

describe("window (reference unit cases)", () => {
  test("start line resolution", () => {
    expect(resolveReadStartLine("a\nb\nc\n", -3)).toBe(2);
    expect(resolveReadStartLine("a\nb\nc", -3)).toBe(2);
    expect(resolveReadStartLine("a\nb\nc\n", -999)).toBe(1);
    expect(resolveReadStartLine("a\nb\nc\n", 0)).toBe(1);
    expect(resolveReadStartLine("a\nb\nc", -1)).toBe(4);
  });
  test("anchors, CRLF, trailing empty line, phantom windows", () => {
    expect(extractFileContentLines("1\n2\r\n3\n", undefined, undefined, 4)).toMatchObject({ content: "1→1\n2\n3\n", rawOutput: "1\n2\r\n3\n" });
    expect(extractFileContentLines("line1\nline2\nline3\nline4\nline5\n", -2, 2, 6).content).toBe("5→line5\n");
    expect(extractFileContentLines("a\nb\nc\nd\ne\n", 3, undefined, 6).content).toBe("3→c\nd\ne\n");
    const twelve = Array.from({ length: 12 }, (_, i) => `L${i + 1}\n`).join("");
    expect(extractFileContentLines(twelve, undefined, undefined, 13).content).toBe("1→L1\nL2\nL3\nL4\nL5\nL6\nL7\nL8\nL9\n10→L10\nL11\nL12\n");
    expect(extractFileContentLines("hello\n", 2, undefined, 2).content).toBe("2→");
    expect(extractFileContentLines("a\nb\nc", -1, 1, 3)).toMatchObject({ content: "", rawOutput: "" });
    expect(extractFileContentLines("a\r\n", undefined, 1, 2).rawOutput).toBe("a\n");
    expect(extractFileContentLines("a\rb\n", undefined, undefined, 2).content).toBe("1→a\rb\n");
  });
  test("inline images: long payload captured, short one left alone, PDF data URI stripped", () => {
    const payload = "A".repeat(50_000);
    const long = tryExtractBase64Images(`![logo](data:image/png;base64,${payload})`);
    expect(long?.images).toEqual([{ data: payload, mime_type: "image/png" }]);
    expect(long?.text).toBe("![logo]([image content will be provided separately])");
    expect(tryExtractBase64Images(`x data:image/png;base64,${"A".repeat(100)}`)).toBeUndefined();
    expect(tryExtractBase64Images("fn main() {}")).toBeUndefined();
    expect(tryExtractBase64Images(`see data:application/pdf;base64,${"A".repeat(4096)} end`)?.text).toBe("see [PDF attachment removed \u2014 3 KB] end");
  });
  test.each([
    ["image/png", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]],
    ["image/jpeg", [0xff, 0xd8, 0xff, 0xe0]],
    ["image/gif", [...Buffer.from("GIF87a")]],
    ["image/webp", [...Buffer.from("RIFF\0\0\0\0WEBPVP8 ")]],
    ["image/bmp", [0x42, 0x4d, ...new Array(12).fill(0)]],
    ["image/tiff", [0x49, 0x49, 0x2a, 0x00]],
    ["image/tiff", [0x4d, 0x4d, 0x00, 0x2a]],
    ["image/vnd.microsoft.icon", [0x00, 0x00, 0x01, 0x00]],
    ["image/avif", [0, 0, 0, 0x1c, ...Buffer.from("ftypavif")]],
    ["image/heif", [0, 0, 0, 0x1c, ...Buffer.from("ftypmif1")]],
    ["image/vnd.adobe.photoshop", [...Buffer.from("8BPS")]],
    ["image/jxl", [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x58, 0x4c, 0x20]],
    ["image/jxl", [0xff, 0x0a]],
    [undefined, [0x42, 0x4d, 0, 0]],
    [undefined, [0, 0, 0, 0x1c, ...Buffer.from("ftypmp42")]],
    [undefined, [...Buffer.from("RIFF\0\0\0\0WAVE")]],
    [undefined, [0x89, 0x50, 0x4e, 0x47]],
  ])("the image kind by magic number: %s", (mime, bytes) => {
    expect(imageMimeType(Uint8Array.from(bytes as number[]))).toBe(mime);
  });

  test("file kinds and the SKILL.md exemption", () => {
    expect(isBinary("png", new Uint8Array())).toBe(true);
    expect(isBinary("pdf", new Uint8Array())).toBe(false);
    expect(isBinary("txt", Buffer.from("Hello\n"))).toBe(false);
    expect(isBinary("txt", Buffer.from([1, 2, 3, 65]))).toBe(true);
    // More than 30% of the first 8 KiB below 9 or in 14-31 (tab, newlines, form feed and CR are text).
    expect(isBinary("txt", Buffer.from([14, 31, 8, ...Buffer.from("abcdefg")]))).toBe(false);
    expect(isBinary("txt", Buffer.from([14, 31, 8, 1, ...Buffer.from("abcdef")]))).toBe(true);
    expect(isBinary("txt", Buffer.from([9, 10, 11, 12, 13, 9, 10, 11, 12, 13]))).toBe(false);
    expect(isBinary("txt", Buffer.concat([Buffer.alloc(8192, "a"), Buffer.alloc(8192, 1)]))).toBe(false);
    expect(isBinary("txt", Buffer.concat([Buffer.alloc(5000, "a"), Buffer.alloc(8192, 1)]))).toBe(true);
    expect(imageMimeType(Buffer.from("GIF89a...."))).toBe("image/gif");
    expect(imageMimeType(Buffer.from("hello"))).toBeUndefined();
    expect(isSkillMarkdown("/a/b/SKILL.md")).toBe(true);
    expect(isSkillMarkdown("/a/skills/x/ref.MD")).toBe(true);
    expect(isSkillMarkdown("/a/skills/../x/ref.md")).toBe(false);
    expect(isSkillMarkdown("/a/skills-cursor/ref.md")).toBe(false);
    expect(isSkillMarkdown("/a/skills/x/ref.txt")).toBe(false);
  });
});

describe("read_file through a session", () => {
  test("description: verbatim template with max_lines_read and the renamed target_file", async () => {
    const s = await session([{ id: "GrokBuild:read_file", paramsNameOverrides: { target_file: "path" } }], { maxLinesRead: 250 });
    const tool = s.toolset?.byClientName("read_file");
    expect(tool?.description).toBe(
      "Read a file.\n\nUsage:\n- The path parameter can be a relative path in the workspace or an absolute path\n- By default, it reads up to 250 lines starting from the beginning of the file\n- Line numbers (1-based) appear as anchors in the format LINE_NUMBER→LINE_CONTENT on the first returned line and on every 10th line of the file; the lines in between show content only. Count from the nearest anchor when referring to a specific line\n- This tool can read PDF files (.pdf), PowerPoint files (.pptx), Jupyter notebooks (.ipynb files), and image files (e.g. PNG, JPG, etc).\n- When reading an image file the contents are presented visually as this tool uses multimodal LLMs.",
    );
    expect(Object.keys((tool?.inputSchema as { properties: Record<string, unknown> }).properties)).toEqual(["path", "offset", "limit", "pages", "format"]);
  });
  test("what the model sees, per namespace and version (snapshot)", async () => {
    const seen: Record<string, unknown> = {};
    for (const entry of [
      { id: "GrokBuild:read_file" },
      { id: "GrokBuild:read_file", behaviorVersion: "legacy-0.4.10" },
      { id: "GrokBuildConcise:read_file" },
    ]) {
      const tool = (await session([entry])).toolset?.byClientName("read_file");
      seen[`${entry.id} ${entry.behaviorVersion ?? "current"}`] = {
        description: tool?.description,
        inputSchema: tool?.inputSchema,
        contractVersion: tool?.contractVersion,
      };
    }
    expect(seen).toMatchSnapshot();
  });
  test("concise description names the offset and limit parameters", async () => {
    const s = await session([{ id: "GrokBuildConcise:read_file" }]);
    expect(s.toolset?.byClientName("read_file")?.description).toContain("- You can optionally specify offset and limit (especially handy for long files).");
  });
  test("the single-line hint names the execute tool; the search tool is named too", async () => {
    await writeFile(path.join(ws, "min.js"), "x".repeat(120_000));
    const s = await session([{ id: "GrokBuild:read_file" }, { id: "Fake:shell" }, { id: "Fake:search_code" }]);
    const error = errorOf(await read(s, { target_file: "min.js" }));
    expect(error.code).toBe(ErrorCode.INVALID_INPUT);
    expect(error.message).toBe(
      "File content (30001 tokens) exceeds maximum allowed tokens (25000 tokens).\nPlease use offset and limit parameters to read a shorter range, or use the 'search_code' to search for specific content.\nNote: the requested read is a single very long line, so line-based offset/limit cannot narrow it further. Use the 'shell' tool to extract the parts you need (e.g. `jq`, `python3`, or `cut -c`).",
    );
  });
  test("no single-line hint without an execute tool, nor for several lines", async () => {
    await writeFile(path.join(ws, "min.js"), "x".repeat(120_000));
    await writeFile(path.join(ws, "many.txt"), `${"y".repeat(200)}\n`.repeat(1100));
    const alone = await session();
    expect(errorOf(await read(alone, { target_file: "min.js" })).message).not.toContain("Note:");
    const withShell = await session([{ id: "GrokBuild:read_file" }, { id: "Fake:shell" }]);
    expect(errorOf(await read(withShell, { target_file: "many.txt", offset: 1, limit: 900 })).message).not.toContain("Note:");
  });
  test("a FIFO is refused without hanging", async () => {
    execFileSync("mkfifo", [path.join(ws, "pipe")]);
    const s = await session();
    const error = errorOf(await read(s, { target_file: "pipe" }));
    expect(error.code).toBe(ErrorCode.INVALID_INPUT);
    expect(error.message).toContain("FIFO");
  });
  test("confinement: `..` after a symlink and a sibling-prefix folder are refused", async () => {
    await mkdir(path.join(base, "outside", "deep"), { recursive: true });
    await writeFile(path.join(base, "outside", "secret.txt"), "SENTINEL");
    await symlink(path.join(base, "outside", "deep"), path.join(ws, "dirlink"));
    await mkdir(`${ws}2`);
    await writeFile(`${ws}2/x.txt`, "SENTINEL");
    const s = await session();
    for (const target of ["dirlink/../secret.txt", `${ws}2/x.txt`, "../ws2/x.txt"]) {
      const outcome = await read(s, { target_file: target });
      expect(errorOf(outcome).code).toBe(ErrorCode.PERMISSION_DENIED);
      expect(JSON.stringify(outcome)).not.toContain("SENTINEL");
    }
  });
  test("a dropped leading slash is repaired onto the cwd", async () => {
    await writeFile(path.join(ws, "a.txt"), "alpha\n");
    const s = await session();
    const outcome = await read(s, { target_file: `${ws.slice(1)}/a.txt` });
    expect(outcome.ok && outcome.promptText).toBe("1→alpha\n");
  });
  test("a look-alike space in the name finds the file", async () => {
    await writeFile(path.join(ws, "Screen\u202FShot.txt"), "pic\n");
    const s = await session();
    const outcome = await read(s, { target_file: "Screen Shot.txt" });
    expect(outcome.ok && JSON.parse(outcome.outputJson).FileContent.absolute_path).toBe(path.join(ws, "Screen\u202FShot.txt"));
  });
  test("the look-alike fallback never lists a folder outside the roots", async () => {
    const outside = path.join(base, "outside");
    await mkdir(outside);
    await writeFile(path.join(outside, "Screen\u202FShot.txt"), "secret\n");
    await symlink(outside, path.join(ws, "out"));
    const s = await session();
    const outcome = await read(s, { target_file: "out/Screen Shot.txt" });
    // Before: the outside folder was listed and its look-alike name taken (then refused as outside).
    // Refused as outside without telling whether the name exists there (issue #19), never read.
    expect(outcome.ok ? "ok" : outcome.error.code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(outcome.ok ? "" : outcome.error.message).not.toContain("\u202F");
  });
  test("cursor rules are read inside the roots only: a rules folder or rule linked outside is not shown", async () => {
    const outside = path.join(base, "outside");
    await mkdir(path.join(outside, "rules"), { recursive: true });
    await writeFile(path.join(outside, "rules", "leak.mdc"), "---\nglobs: *.ts\n---\nOUTSIDE RULE\n");
    await writeFile(path.join(outside, "single.mdc"), "---\nglobs: *.ts\n---\nOUTSIDE SINGLE\n");
    await mkdir(path.join(ws, "a", ".cursor"), { recursive: true });
    await symlink(path.join(outside, "rules"), path.join(ws, "a", ".cursor", "rules"));
    await mkdir(path.join(ws, ".cursor", "rules"), { recursive: true });
    await writeFile(path.join(ws, ".cursor", "rules", "ts.mdc"), "---\nglobs: *.ts\n---\nInside rule.\n");
    await mkdir(path.join(ws, ".cursor", "rules", "more"));
    await writeFile(path.join(ws, ".cursor", "rules", "more", "deep.mdc"), "---\nglobs: *.ts\n---\nDeep rule.\n");
    await symlink(path.join(outside, "single.mdc"), path.join(ws, ".cursor", "rules", "more", "linked.mdc"));
    await writeFile(path.join(ws, "a", "x.ts"), "export {};\n");
    const s = await session([{ id: "GrokBuild:read_file", paramsJson: JSON.stringify({ cursor_rules_on_read: true }) }]);
    const outcome = await read(s, { target_file: "a/x.ts" });
    expect(outcome.ok).toBe(true);
    const text = outcome.ok ? outcome.promptText : "";
    expect(text).not.toContain("OUTSIDE");
    expect(text).toContain(`- ${ws}/.cursor/rules/ts.mdc\nInside rule.`);
    expect(text).toContain(`- ${ws}/.cursor/rules/more/deep.mdc\nDeep rule.`);
  });
  test("a read is recorded in the tracker (content hash), and travels in the state", async () => {
    await writeFile(path.join(ws, "a.txt"), "alpha\n");
    const s = await session();
    await read(s, { target_file: "a.txt", offset: 1, limit: 1 });
    const tracker = readTracker(s);
    expect(tracker.get(path.join(ws, "a.txt"))?.size).toBe(6);
    expect(() => tracker.checkBeforeEdit(path.join(ws, "a.txt"), Buffer.from("alpha\n"))).not.toThrow();
    const state = (await s.snapshotState()).state as Record<string, unknown>;
    expect(Object.keys(state[FILE_READ_TRACKER.id] as object)).toEqual([path.join(ws, "a.txt")]);
    await read(s, { target_file: "missing.txt" });
    expect(tracker.get(path.join(ws, "missing.txt"))).toBeUndefined();
  });
  test("a read waits for the session's edit of the file (its lock), also through a link, and records what the edit left", async () => {
    await writeFile(path.join(ws, "a.txt"), "before\n");
    await symlink(path.join(ws, "a.txt"), path.join(ws, "link.txt"));
    const s = await session();
    for (const name of ["a.txt", "link.txt"]) {
      let reading: Promise<ExecuteOutcome> | undefined;
      let settled = false;
      let settledDuringEdit = true;
      await s.service(PATH_LOCKS).withLock(path.join(ws, "a.txt"), async () => {
        reading = read(s, { target_file: name });
        void reading.then(() => (settled = true));
        await new Promise((resolve) => setTimeout(resolve, 30));
        await writeFile(path.join(ws, "a.txt"), `after ${name}\n`);
        settledDuringEdit = settled;
      });
      const outcome = await reading!;
      expect(settledDuringEdit).toBe(false);
      expect(outcome.ok && outcome.promptText).toContain(`after ${name}`);
      expect(() => readTracker(s).checkBeforeEdit(path.join(ws, "a.txt"), Buffer.from(`after ${name}\n`))).not.toThrow();
    }
  });
  test("gitignore: refused only when the filter is on and respect_gitignore is true; legacy ignores it", async () => {
    await writeFile(path.join(ws, ".gitignore"), "*.log\nbuild/\n!keep.log\n");
    await writeFile(path.join(ws, "app.log"), "log\n");
    await writeFile(path.join(ws, "keep.log"), "kept\n");
    await mkdir(path.join(ws, "build"));
    await writeFile(path.join(ws, "build", "out.txt"), "out\n");
    const s = await session();
    expect((await read(s, { target_file: "app.log" })).ok).toBe(true);
    const policy = s.service(GITIGNORE_POLICY);
    policy.filterEnabled = true;
    expect((await read(s, { target_file: "app.log" })).ok).toBe(true);
    policy.respectGitignore = true;
    const refused = errorOf(await read(s, { target_file: "app.log" }));
    expect(refused.code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(refused.message).toBe(`Error: ${ws}/app.log is ignored by .gitignore and cannot be read.`);
    expect(errorOf(await read(s, { target_file: "build/out.txt" })).message).toContain("is ignored by .gitignore");
    expect((await read(s, { target_file: "keep.log" })).ok).toBe(true);
    const legacy = await session([{ id: "GrokBuild:read_file", behaviorVersion: "legacy-0.4.10" }]);
    legacy.service(GITIGNORE_POLICY).filterEnabled = true;
    legacy.service(GITIGNORE_POLICY).respectGitignore = true;
    expect((await read(legacy, { target_file: "app.log" })).ok).toBe(true);
  });
  test("other I/O failures render `IO Error: <strerror> (os error N)`", async () => {
    await writeFile(path.join(ws, "file"), "x");
    const s = await session();
    const error = errorOf(await read(s, { target_file: "file/child" }));
    expect(error.code).toBe(ErrorCode.EXECUTION_FAILED);
    expect(error.message).toBe(`Failed to read file: ${ws}/file/child, IO Error: Not a directory (os error 20)`);
  });
  test("EACCES and EPERM map to PermissionDenied with the display path", () => {
    const ctx = { names: { tool: () => undefined } } as unknown as Parameters<typeof mapReadError>[1]["ctx"];
    for (const code of ["EACCES", "EPERM"]) {
      const error = mapReadError(Object.assign(new Error(code), { code }), { legacy: false, display: "/w/locked.txt", canonical: "/w/locked.txt", ctx });
      expect({ code: error.code, message: error.message }).toEqual({ code: ErrorCode.PERMISSION_DENIED, message: "Permission denied: /w/locked.txt" });
    }
    const legacy = mapReadError(Object.assign(new Error("EACCES"), { code: "EACCES" }), { legacy: true, display: "/w/x", canonical: "/real/x", ctx });
    expect({ code: legacy.code, message: legacy.message }).toEqual({ code: ErrorCode.PERMISSION_DENIED, message: "Failed to read file: /real/x" });
  });
  test("a corrupt image over the payload cap cannot be embedded", async () => {
    const magic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await writeFile(path.join(ws, "huge.png"), Buffer.concat([magic, Buffer.alloc(700_000, 1)]));
    await writeFile(path.join(ws, "broken.png"), Buffer.concat([magic, Buffer.alloc(700_000, 0)]));
    const s = await session();
    const huge = errorOf(await read(s, { target_file: "huge.png" }));
    expect(huge).toMatchObject({
      code: ErrorCode.INVALID_INPUT,
      message: "Could not embed image in conversation: image dimensions 16843009x16843009 exceed the 178956970 pixel decode limit",
    });
    expect(errorOf(await read(s, { target_file: "broken.png" })).message).toMatch(/^Could not embed image in conversation: image decode failed: /);
  });
  test("images are scaled into the pixel budget and re-encoded under the payload cap; GIF becomes PNG", async () => {
    const { createCanvas, loadImage } = await import("@napi-rs/canvas");
    const noise = createCanvas(2400, 1200);
    const context = noise.getContext("2d");
    const pixels = context.createImageData(2400, 1200);
    let seed = 0x12345678;
    for (let i = 0; i < pixels.data.length; i++) {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      pixels.data[i] = i % 4 === 3 ? 255 : seed >>> 24;
    }
    context.putImageData(pixels, 0, 0);
    await writeFile(path.join(ws, "noise.png"), await noise.encode("png"));
    const tiny = createCanvas(6, 4);
    tiny.getContext("2d").fillRect(0, 0, 6, 4);
    const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
    await writeFile(path.join(ws, "dot.gif"), gif);
    const s = await session();
    const big = await read(s, { target_file: "noise.png" });
    if (!big.ok) throw new Error(big.error.message);
    const image = JSON.parse(big.outputJson).ImageContent as { data: string; mime_type: string };
    expect(image.data.length).toBeLessThanOrEqual(768 * 1024);
    const decoded = await loadImage(Buffer.from(image.data, "base64"));
    expect(decoded.width).toBeLessThanOrEqual(2000);
    expect(decoded.width * decoded.height).toBeLessThanOrEqual(1_048_576);
    expect(Math.abs(decoded.width / decoded.height - 2)).toBeLessThan(0.01);
    expect(big.promptText).toBe(`[Image content of type: ${image.mime_type} is included inline in this tool result]`);
    const small = await read(s, { target_file: "dot.gif" });
    expect(small.ok && JSON.parse(small.outputJson).ImageContent.mime_type).toBe("image/png");
  });
  test("a negative limit is invalid input; null optional fields count as absent", async () => {
    await writeFile(path.join(ws, "a.txt"), "alpha\n");
    const s = await session();
    expect(errorOf(await read(s, { target_file: "a.txt", limit: -1 })).code).toBe(ErrorCode.INVALID_INPUT);
    const outcome = await read(s, { target_file: "a.txt", offset: null, limit: null, pages: null, format: null });
    expect(outcome.ok && outcome.promptText).toBe("1→alpha\n");
  });
  test("a file swapped for an outside symlink after a successful read is refused on the next read", async () => {
    await writeFile(path.join(base, "secret.txt"), "SENTINEL");
    await writeFile(path.join(ws, "a.txt"), "alpha\n");
    const s = await session();
    expect((await read(s, { target_file: "a.txt" })).ok).toBe(true);
    await unlink(path.join(ws, "a.txt"));
    await symlink(path.join(base, "secret.txt"), path.join(ws, "a.txt"));
    const outcome = await read(s, { target_file: "a.txt" });
    expect(errorOf(outcome).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(JSON.stringify(outcome)).not.toContain("SENTINEL");
  });
});
