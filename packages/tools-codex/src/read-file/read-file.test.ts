/**
 * Codex:read_file: the reference's slice.rs, indentation.rs and tool.rs tests, through the tool and
 * through the pure readers.
 */
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "@grok-tools/runtime";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { errorCodeName } from "@grok-tools/runtime/helpers";
import { codex } from "../namespace.js";
import { readBlock, type IndentationOptions } from "./indentation.js";
import { collectLines } from "./lines.js";
import { readSlice } from "./slice.js";

const opts = (anchorLine: number | undefined, maxLevels: number, includeSiblings: boolean, includeHeader: boolean, maxLines?: number): IndentationOptions => ({
  anchorLine,
  maxLevels,
  includeSiblings,
  includeHeader,
  maxLines,
});
const block = (text: string, offset: number, limit: number, options: IndentationOptions): string[] =>
  readBlock(collectLines(Buffer.from(text)), offset, limit, options);
const slice = (content: string | Buffer, offset: number, limit: number): string[] =>
  readSlice(collectLines(typeof content === "string" ? Buffer.from(content) : content), offset, limit);

describe("slice mode", () => {
  test("reads the requested range", () => {
    expect(slice("first\nsecond\nthird\nfourth\n", 2, 2)).toEqual(["L2: second", "L3: third"]);
  });
  test("an offset past the end", () => {
    expect(() => slice("one\ntwo\n", 100, 10)).toThrow("offset exceeds file length");
    expect(() => slice("", 1, 10)).toThrow("offset exceeds file length");
  });
  test("non-UTF-8 bytes become U+FFFD", () => {
    expect(slice(Buffer.from([0xff, 0xfe, 0x0a]), 1, 10)).toEqual(["L1: \uFFFD\uFFFD"]);
  });
  test("CRLF endings are trimmed", () => {
    expect(slice("hello\r\nworld\r\n", 1, 10)).toEqual(["L1: hello", "L2: world"]);
  });
  test("the limit is respected", () => {
    expect(slice("a\nb\nc\nd\ne\n", 1, 3)).toEqual(["L1: a", "L2: b", "L3: c"]);
  });
  test("long lines are clipped to 500 bytes at a character boundary", () => {
    expect(slice(`${"x".repeat(600)}\n`, 1, 10)).toEqual([`L1: ${"x".repeat(500)}`]);
    expect(slice(`${"a".repeat(499)}éx\n`, 1, 10)).toEqual([`L1: ${"a".repeat(499)}`]);
  });
  test("a last line without a newline", () => {
    expect(slice("hello", 1, 10)).toEqual(["L1: hello"]);
  });
});

describe("indentation mode", () => {
  const py = "def foo():\n    x = 1\n    y = 2\n    return x + y\n\ndef bar():\n    pass\n";

  test("captures a function block within the limit", () => {
    expect(block(py, 1, 4, opts(2, 1, false, true, 4))).toEqual(["L1: def foo():", "L2:     x = 1", "L3:     y = 2", "L4:     return x + y"]);
    const full = block(py, 1, 2000, opts(2, 1, false, true));
    expect(full).toEqual(["L1: def foo():", "L2:     x = 1", "L3:     y = 2", "L4:     return x + y", "L5: ", "L6: def bar():", "L7:     pass"]);
  });

  test("expands to the parent class", () => {
    const content = "class MyClass:\n    def method(self):\n        x = 1\n        y = 2\n        return x + y\n\n    def other(self):\n        pass\n";
    expect(block(content, 1, 2000, opts(3, 2, false, true)).slice(0, 5)).toEqual([
      "L1: class MyClass:",
      "L2:     def method(self):",
      "L3:         x = 1",
      "L4:         y = 2",
      "L5:         return x + y",
    ]);
  });

  const cls =
    "class C:\n    def a(self):\n        pass\n    def b(self):\n        pass\n    def anchor(self):\n        x = 1\n    def d(self):\n        pass\n    def e(self):\n        pass\n";
  test("siblings at a non-zero floor", () => {
    const without = block(cls, 1, 2000, opts(7, 1, false, true));
    expect(without).toEqual(["L5:         pass", "L6:     def anchor(self):", "L7:         x = 1", "L8:     def d(self):", "L9:         pass"]);
    const withSiblings = block(cls, 1, 2000, opts(7, 1, true, true));
    expect(withSiblings.some((l) => l.includes("def a("))).toBe(true);
    expect(withSiblings.some((l) => l.includes("def e("))).toBe(true);
    expect(withSiblings.length).toBeGreaterThan(without.length);
  });

  test("header comments", () => {
    const content = "# Helper function\n# for computation\ndef compute(x):\n    return x * 2\n";
    expect(block(content, 1, 2000, opts(4, 1, false, true))).toEqual([
      "L1: # Helper function",
      "L2: # for computation",
      "L3: def compute(x):",
      "L4:     return x * 2",
    ]);
    expect(block(content, 1, 2000, opts(4, 1, false, false))).toEqual(["L3: def compute(x):", "L4:     return x * 2"]);
  });

  test("the limit caps the block", () => {
    const content = "def foo():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    e = 5\n";
    expect(block(content, 1, 3, opts(3, 0, false, true, 3))).toEqual(["L2:     a = 1", "L3:     b = 2", "L4:     c = 3"]);
  });

  test("a limit of one returns the anchor", () => {
    expect(block("line1\nline2\nline3\n", 1, 2000, opts(2, 0, false, true, 1))).toEqual(["L2: line2"]);
  });

  test("errors and the empty file", () => {
    expect(() => block("one\ntwo\n", 1, 2000, opts(100, 0, false, true))).toThrow("anchor_line exceeds file length");
    expect(() => block("line1\nline2\n", 1, 2000, opts(1, 0, false, true, 0))).toThrow("max_lines must be greater than zero");
    expect(block("", 1, 2000, opts(undefined, 0, false, true))).toEqual([]);
  });

  test("blank lines at both ends are trimmed", () => {
    const result = block("\ndef foo():\n    x = 1\n\n", 1, 2000, opts(3, 1, false, true));
    expect(result).toEqual(["L2: def foo():", "L3:     x = 1"]);
  });

  test("C++ switch, shallow and deeper", () => {
    const shallow =
      '#include <iostream>\n\nint main() {\n    switch (x) {\n        case 1:\n            std::cout << "one";\n            break;\n        case 2:\n            std::cout << "two";\n            break;\n    }\n    return 0;\n}\n';
    const a = block(shallow, 1, 2000, opts(6, 1, false, true));
    expect(a.some((l) => l.includes("case 1:"))).toBe(true);
    expect(a.some((l) => l.includes('"one"'))).toBe(true);
    const deeper = `// Main entry point\n${shallow}`;
    expect(block(deeper, 1, 2000, opts(7, 2, false, true)).some((l) => l.includes("switch (x)"))).toBe(true);
  });
});

describe("the tool", () => {
  let dir = "";
  let session: Session;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "codex-read-")));
    session = new Session({ registry: ToolRegistry.of([codex]), workspace: dir, stateDir: path.join(dir, ".state") });
    await session.finalize({ tools: [{ id: "Codex:read_file" }] });
  });
  afterAll(async () => {
    await session.close();
    await rm(dir, { recursive: true, force: true });
  });
  const call = (input: Record<string, unknown>) => session.execute({ toolName: "read_file", inputJson: JSON.stringify(input) });

  test("a slice, with output_json", async () => {
    const file = path.join(dir, "t.txt");
    await writeFile(file, "first\nsecond\nthird\nfourth");
    const result = await call({ file_path: file, offset: 2, limit: 2 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.promptText).toBe("L2: second\nL3: third");
    expect(JSON.parse(result.outputJson)).toEqual({
      type: "ReadFile",
      FileContent: { content: "L2: second\nL3: third", absolute_path: file, offset: 2, limit: 2, raw_output: "first\nsecond\nthird\nfourth", total_lines: 4 },
    });
  });

  test("indentation mode with lenient booleans", async () => {
    const file = path.join(dir, "code.py");
    await writeFile(file, "# c\ndef compute(x):\n    return x * 2\n");
    const result = await call({ file_path: file, mode: "indentation", indentation: { anchor_line: 3, max_levels: 1, include_header: "no" } });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.promptText).toBe("L2: def compute(x):\nL3:     return x * 2");
  });

  test("indentation mode on an empty file says so (errata 12)", async () => {
    const file = path.join(dir, "empty.txt");
    await writeFile(file, "");
    const result = await call({ file_path: file, mode: "indentation" });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.promptText).toBe("File is empty.");
  });

  test.each([
    [{ offset: 0 }, "INVALID_INPUT", "offset must be a 1-indexed line number"],
    [{ limit: 0 }, "INVALID_INPUT", "limit must be greater than zero"],
    [{ offset: 100 }, "INVALID_INPUT", "offset exceeds file length"],
    [{ mode: "indentation", indentation: { anchor_line: 100 } }, "INVALID_INPUT", "anchor_line exceeds file length"],
    [{ mode: "indentation", indentation: { max_lines: 0 } }, "INVALID_INPUT", "max_lines must be greater than zero"],
  ])("%j fails with %s", async (extra, code, message) => {
    const file = path.join(dir, "v.txt");
    await writeFile(file, "content\n");
    const result = await call({ file_path: file, ...extra });
    if (result.ok) throw new Error("expected an error");
    expect([errorCodeName(result.error.code), result.error.message]).toEqual([code, message]);
  });

  test("a relative path, a missing file, a folder, a path outside the workspace", async () => {
    const relative = await call({ file_path: "relative/path.txt" });
    expect(relative.ok ? "" : relative.error.message).toBe("file_path must be an absolute path");
    const missing = await call({ file_path: path.join(dir, "nope.txt") });
    expect(missing.ok ? undefined : [missing.error.code, missing.error.message]).toEqual([
      ErrorCode.FILE_NOT_FOUND,
      `Failed to read file: ${dir}/nope.txt, IO Error: No such file or directory (os error 2)`,
    ]);
    const folder = await call({ file_path: dir });
    expect(folder.ok ? "" : folder.error.message).toBe(`Failed to read file: ${dir}, IO Error: Is a directory (os error 21)`);
    const outside = await call({ file_path: "/etc/passwd" });
    expect(outside.ok ? undefined : outside.error.code).toBe(ErrorCode.PERMISSION_DENIED);
  });
});
