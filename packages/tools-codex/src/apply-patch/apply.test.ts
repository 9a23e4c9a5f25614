/**
 * deriveNewContents: the reference's apply.rs tests and the trailing-newline rules.
 */
import { describe, expect, test } from "@jest/globals";
import { ErrorCode, ToolError } from "@grok-tools/runtime";
import { deriveNewContents } from "./apply.js";
import { parsePatch, type UpdateFileChunk } from "./parser.js";

function chunksOf(body: string): UpdateFileChunk[] {
  const hunk = parsePatch(`*** Begin Patch\n*** Update File: f.txt\n${body}\n*** End Patch`).hunks[0];
  if (hunk?.kind !== "update") throw new Error("expected an update hunk");
  return hunk.chunks;
}

describe("deriveNewContents", () => {
  test("modifies content", () => {
    expect(deriveNewContents("foo\nbar\n", "f.txt", chunksOf("@@\n foo\n-bar\n+baz"))).toBe("foo\nbaz\n");
  });
  test("several chunks in one file", () => {
    expect(deriveNewContents("foo\nbar\nbaz\nqux\n", "f.txt", chunksOf("@@\n foo\n-bar\n+BAR\n@@\n baz\n-qux\n+QUX"))).toBe("foo\nBAR\nbaz\nQUX\n");
  });
  test("interleaved changes", () => {
    expect(deriveNewContents("a\nb\nc\nd\ne\nf\n", "f.txt", chunksOf("@@\n a\n-b\n+B\n@@\n c\n d\n-e\n+E\n@@\n f\n+g\n*** End of File"))).toBe(
      "a\nB\nc\nd\nE\nf\ng\n",
    );
  });
  test("Unicode dashes", () => {
    const original = "import asyncio  # local import \u2013 avoids top\u2011level dep\n";
    expect(deriveNewContents(original, "f.txt", chunksOf("@@\n-import asyncio  # local import - avoids top-level dep\n+import asyncio  # HELLO"))).toBe(
      "import asyncio  # HELLO\n",
    );
  });
  test("a pure addition then a removal", () => {
    expect(
      deriveNewContents("line1\nline2\nline3\n", "f.txt", chunksOf("@@\n+after-context\n+second-line\n@@\n line1\n-line2\n-line3\n+line2-replacement")),
    ).toBe("line1\nline2-replacement\nafter-context\nsecond-line\n");
  });
  test("End of File addition", () => {
    expect(deriveNewContents("foo\nbar\nbaz\n", "f.txt", chunksOf("@@\n+quux\n*** End of File"))).toBe("foo\nbar\nbaz\nquux\n");
  });
  test("a missing final newline is added", () => {
    expect(deriveNewContents("a\nb", "f.txt", chunksOf("@@\n-b\n+c"))).toBe("a\nc\n");
  });
  test("a trailing empty old line is retried without it", () => {
    expect(deriveNewContents("a\nb\n", "f.txt", chunksOf("@@\n-b\n-\n+c\n+"))).toBe("a\nc\n");
  });
  test("an empty file stays empty when nothing is added", () => {
    expect(deriveNewContents("", "f.txt", chunksOf("@@\n+x"))).toBe("x\n");
  });
  test("a final blank line is taken for the newline and dropped (reference rule)", () => {
    expect(deriveNewContents("x\na\n\n", "f.txt", chunksOf("@@\n-x\n+y"))).toBe("y\na\n");
  });
  test("missing context", () => {
    let error: unknown;
    try {
      deriveNewContents("foo\nbar\n", "/ws/missing.txt", chunksOf("@@ nonexistent_context\n-bar\n+baz"));
    } catch (e) {
      error = e;
    }
    expect(ToolError.is(error)).toBe(true);
    const toolError = error as ToolError;
    expect(toolError.code).toBe(ErrorCode.NO_MATCHES);
    expect(toolError.message).toBe("Failed to find context 'nonexistent_context' in /ws/missing.txt");
    expect(toolError.filePath).toBe("/ws/missing.txt");
  });
  test("missing old lines", () => {
    expect(() => deriveNewContents("foo\nbar\n", "m.txt", chunksOf("@@\n-nonexistent\n+replacement"))).toThrow(
      "Failed to find expected lines in m.txt:\nnonexistent",
    );
  });
});
