// GrokBuild:grep: argument building, output formatting, and searches through a session (the runner is the runtime's).
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode, defineNamespace } from "@grok-tools/runtime";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { grep } from "./grep.js";
import { finalizeGrep, trimLine, type GrepFormatConfig } from "./format.js";
import { effectiveHeadLimit, ripgrepArgs } from "./execute.js";
import { grokBuildBehaviour } from "../namespace.js";

const ns = defineNamespace({ name: "GrokBuild", apiVersion: 1, tools: [grep], ...grokBuildBehaviour });
let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "grep-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function files(spec: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(spec)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), content);
  }
}

async function run(input: Record<string, unknown>, params?: Record<string, unknown>, signal?: AbortSignal) {
  const s = new Session({ registry: ToolRegistry.of([ns]), workspace: dir, stateDir: path.join(os.tmpdir(), "grep-state") });
  const ok = await s.finalize({ tools: [{ id: "GrokBuild:grep", ...(params ? { paramsJson: JSON.stringify(params) } : {}) }] });
  if (!ok.ok) throw new Error(ok.message);
  try {
    return await s.execute({ toolName: "grep", inputJson: JSON.stringify(input), ...(signal ? { signal } : {}) });
  } finally {
    await s.close();
  }
}

const wrap = (body: string) => `<workspace_result workspace_path="${dir}">\n${body}\n</workspace_result>`;

test("content mode: heading format, counts and structured matches", async () => {
  await files({ "a.txt": "alpha\nbeta\nalpha beta\n", "sub/b.txt": "nothing\n" });
  const r = await run({ pattern: "alpha" });
  if (!r.ok) throw new Error(r.error.message);
  expect(r.promptText).toBe(wrap(`Found 2 matching lines\n${dir}/a.txt\n1:alpha\n3:alpha beta`));
  expect(JSON.parse(r.outputJson)).toEqual({
    type: "GrepSearch",
    stdout: r.promptText,
    stderr: "",
    exit_code: 0,
    match_count: 2,
    file_matches: [
      {
        path: `${dir}/a.txt`,
        matches: [
          { line_number: 1, content: "alpha" },
          { line_number: 3, content: "alpha beta" },
        ],
      },
    ],
  });
});

test("no match is a success with the reference's text", async () => {
  await files({ "a.txt": "alpha\n" });
  const r = await run({ pattern: "zzz" });
  expect(r.ok && r.promptText).toBe(wrap("No matches found"));
});

test("a pattern that looks like a flag is searched for, never parsed as one", async () => {
  await files({ "a.txt": "--files\nx\n" });
  const r = await run({ pattern: "--files" });
  expect(r.ok && r.promptText).toBe(wrap(`Found 1 matching lines\n${dir}/a.txt\n1:--files`));
});

test("context flags, -i as a lenient string and head_limit counting output lines", async () => {
  await files({ "a.txt": "one\nTWO\nthree\nfour\nfive\ntwo\nseven\n" });
  const r = await run({ pattern: "two", "-i": "yes", "-B": 1, head_limit: "5" });
  expect(r.ok && r.promptText).toBe(wrap(`Found at least 1 matching lines\n${dir}/a.txt\n1-one\n2:TWO\n--\n5-five`));
});

test("an exact fit of head_limit is not reported as truncated", async () => {
  await files({ "a.txt": "x1\nx2\nx3\n" });
  const r = await run({ pattern: "x", head_limit: 4 });
  expect(r.ok && r.promptText).toBe(wrap(`Found 3 matching lines\n${dir}/a.txt\n1:x1\n2:x2\n3:x3`));
});

test("files_with_matches and count modes", async () => {
  await files({ "a.txt": "x\nx\n", "b.txt": "x\n" });
  const files_ = await run({ pattern: "x", output_mode: "files_with_matches" });
  // ripgrep searches files in parallel, so the order of files is not fixed (as in the reference).
  const lines = (files_.ok ? files_.promptText : "").split("\n");
  expect([...lines.slice(0, 2), ...lines.slice(2, 4).sort(), ...lines.slice(4)].join("\n")).toBe(wrap(`Found 2 files\n${dir}/a.txt\n${dir}/b.txt`));
  const count = await run({ pattern: "x", output_mode: "count", path: "." });
  expect(count.ok && count.promptText).toMatch(/Found 3 across 2 files\n/);
  const bad = await run({ pattern: "x", output_mode: "lines" });
  expect(!bad.ok && bad.error.message).toBe("unknown variant `lines`, expected one of `content`, `files_with_matches`, `count`");
});

test("max_output_bytes and max_chars_per_line params", async () => {
  await files({ "a.txt": `${"y".repeat(30)}\nyy\nyyy\n` });
  // Clipping applies to the heading line too; the budget counts the clipped lines' bytes.
  const heading = trimLine(`${dir}/a.txt`, 10);
  const r = await run({ pattern: "y" }, { max_output_bytes: Buffer.byteLength(heading) + 43 + 4, max_chars_per_line: 10 });
  expect(r.ok && r.promptText).toBe(wrap(`Found 3 matching lines\n${heading}\n1:yyyyyyyy [... truncated (32 chars total)]\n2:yy\n... [1 lines truncated] ...`));
});

test("missing path is FILE_NOT_FOUND; a bad regex is INVALID_INPUT; outside the roots is PERMISSION_DENIED", async () => {
  const missing = await run({ pattern: "x", path: "nope/x" });
  expect(!missing.ok && [missing.error.code, missing.error.message]).toEqual([ErrorCode.FILE_NOT_FOUND, `Error: ${dir}/nope/x does not exist.`]);
  await files({ "a.txt": "x\n" });
  const regex = await run({ pattern: "(" });
  expect(!regex.ok && regex.error.code).toBe(ErrorCode.INVALID_INPUT);
  expect(!regex.ok && regex.error.message).toMatch(/^Error calling tool: rg: regex parse error[\s\S]*\(exit 2, root: /);
  const outside = await run({ pattern: "x", path: "/etc" });
  expect(!outside.ok && outside.error.code).toBe(ErrorCode.PERMISSION_DENIED);
});

test("RG_BIN_PATH overrides the binary", async () => {
  await files({ "a.txt": "x\n" });
  process.env.RG_BIN_PATH = path.join(dir, "no-such-rg");
  try {
    const r = await run({ pattern: "x" });
    expect(!r.ok && r.error.code).toBe(ErrorCode.EXECUTION_FAILED);
  } finally {
    delete process.env.RG_BIN_PATH;
  }
});

test("cancellation kills the search", async () => {
  await files({ "a.txt": "x\n" });
  const controller = new AbortController();
  controller.abort();
  const r = await run({ pattern: "x" }, undefined, controller.signal);
  expect(!r.ok && r.error.code).toBe(ErrorCode.CANCELLED);
});

test("pure helpers", () => {
  expect(trimLine("héllo", 3)).toBe("hél [... truncated (5 chars total)]");
  expect(effectiveHeadLimit(undefined, "content")).toBe(200);
  expect(effectiveHeadLimit(99_999, "count")).toBe(10_000);
  expect(ripgrepArgs({ pattern: "-x", glob: "*.ts", "-C": 0, "-A": 2 }, "content", "/w")).toEqual([
    "--heading",
    "--with-filename",
    "--line-number",
    "--color=never",
    "--max-columns",
    "1000",
    "--max-columns-preview",
    "--glob",
    "*.ts",
    "-A",
    "2",
    "-e",
    "-x",
    "/w",
    "--max-filesize",
    "5M",
  ]);
  const config: GrepFormatConfig = { outputMode: "content", effectiveHeadLimit: 200, maxCharsPerLine: 1000, maxOutputBytes: 1, cwdDisplay: "/w" };
  expect(finalizeGrep("/w/a\n1:abc\n", false, "", 0, config).stdout).toBe(
    '<workspace_result workspace_path="/w">\nFound 1 matching lines\n... [1 lines truncated] ...\n</workspace_result>',
  );
  expect(finalizeGrep("", false, "boom", 3, config).stdout).toBe("Error calling tool: unknown error (exit 3, root: /w)");
});

test("a cancelled call stops ripgrep and fails as CANCELLED; a failed launch names the binary override", async () => {
  const saved = process.env.RG_BIN_PATH;
  const fake = path.join(dir, "slow-rg.sh");
  await writeFile(fake, "#!/bin/sh\nsleep 30\n");
  await chmod(fake, 0o755);
  try {
    process.env.RG_BIN_PATH = fake;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const cancelled = await run({ pattern: "x" }, undefined, controller.signal);
    expect(cancelled.ok ? "ok" : cancelled.error.code).toBe(ErrorCode.CANCELLED);
    process.env.RG_BIN_PATH = path.join(dir, "no-such-rg");
    const failed = await run({ pattern: "x" });
    expect(failed.ok ? "ok" : [failed.error.code, failed.error.message.startsWith("Error calling tool: ")]).toEqual([ErrorCode.EXECUTION_FAILED, true]);
  } finally {
    if (saved === undefined) delete process.env.RG_BIN_PATH;
    else process.env.RG_BIN_PATH = saved;
  }
});
