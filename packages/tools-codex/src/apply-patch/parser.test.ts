/**
 * Parser tests, ported from the reference's parser.rs tests plus the error line numbers and messages.
 */
import { describe, expect, test } from "@jest/globals";
import { ErrorCode, ToolError } from "@grok-tools/runtime";
import { parsePatch, parseUpdateFileChunk } from "./parser.js";

/** The ToolError thrown by `fn`, or a failure. */
function errorOf(fn: () => unknown): ToolError {
  try {
    fn();
  } catch (error) {
    if (ToolError.is(error)) return error;
    throw error;
  }
  throw new Error("expected a ToolError");
}

const wrap = (body: string): string => `*** Begin Patch\n${body}\n*** End Patch`;

describe("parsePatch boundaries", () => {
  test("a bad first line", () => {
    const error = errorOf(() => parsePatch("bad"));
    expect(error.code).toBe(ErrorCode.INVALID_INPUT);
    expect(error.message).toBe("Invalid patch: The first line of the patch must be '*** Begin Patch'");
  });

  test("a bad last line", () => {
    expect(errorOf(() => parsePatch("*** Begin Patch\nbad")).message).toBe("Invalid patch: The last line of the patch must be '*** End Patch'");
  });

  test.each(["", "   \n ", "*** Begin Patch"])("%j gets the last-line error (errata 3)", (patch) => {
    expect(errorOf(() => parsePatch(patch)).message).toBe("Invalid patch: The last line of the patch must be '*** End Patch'");
  });

  test("whitespace around the markers is allowed", () => {
    expect(parsePatch("*** Begin Patch \n*** Add File: foo\n+hi\n *** End Patch").hunks).toEqual([{ kind: "add", path: "foo", contents: "hi\n" }]);
  });

  test("no hunks", () => {
    expect(parsePatch("*** Begin Patch\n*** End Patch").hunks).toEqual([]);
  });

  test("CRLF patches parse like LF ones", () => {
    expect(parsePatch("*** Begin Patch\r\n*** Add File: a\r\n+x\r\n*** End Patch\r\n").hunks).toEqual([{ kind: "add", path: "a", contents: "x\n" }]);
  });
});

describe("parsePatch hunks", () => {
  test("all hunk types", () => {
    const patch = wrap(
      [
        "*** Add File: path/add.py",
        "+abc",
        "+def",
        "*** Delete File: path/delete.py",
        "*** Update File: path/update.py",
        "*** Move to: path/update2.py",
        "@@ def f():",
        "-    pass",
        "+    return 123",
      ].join("\n"),
    );
    expect(parsePatch(patch).hunks).toEqual([
      { kind: "add", path: "path/add.py", contents: "abc\ndef\n" },
      { kind: "delete", path: "path/delete.py" },
      {
        kind: "update",
        path: "path/update.py",
        movePath: "path/update2.py",
        chunks: [{ changeContext: "def f():", oldLines: ["    pass"], newLines: ["    return 123"], isEndOfFile: false }],
      },
    ]);
  });

  test("an update followed by an add", () => {
    expect(parsePatch(wrap("*** Update File: file.py\n@@\n+line\n*** Add File: other.py\n+content")).hunks).toEqual([
      { kind: "update", path: "file.py", movePath: undefined, chunks: [{ changeContext: undefined, oldLines: [], newLines: ["line"], isEndOfFile: false }] },
      { kind: "add", path: "other.py", contents: "content\n" },
    ]);
  });

  test("the first chunk may omit its @@ marker", () => {
    expect(parsePatch(wrap("*** Update File: file2.py\n import foo\n+bar")).hunks).toEqual([
      {
        kind: "update",
        path: "file2.py",
        movePath: undefined,
        chunks: [{ changeContext: undefined, oldLines: ["import foo"], newLines: ["import foo", "bar"], isEndOfFile: false }],
      },
    ]);
  });

  test("an empty update hunk", () => {
    const error = errorOf(() => parsePatch(wrap("*** Update File: test.py")));
    expect(error.message).toBe("Invalid patch hunk on line 2: Update file hunk for path 'test.py' is empty");
    expect(error.lineNumber).toBe(2);
    expect(error.details).toEqual({ kind: "invalid_hunk", message: "Update file hunk for path 'test.py' is empty", line_number: 2 });
  });

  test("a bad hunk header names its line", () => {
    expect(errorOf(() => parsePatch(wrap("*** Add File: a\n+x\nbad"))).message).toBe(
      "Invalid patch hunk on line 4: 'bad' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
    );
  });

  test("a later chunk must start with @@", () => {
    expect(errorOf(() => parsePatch(wrap("*** Update File: a\n@@\n-x\n+y\n\nnot a marker"))).message).toBe(
      "Invalid patch hunk on line 7: Expected update hunk to start with a @@ context marker, got: 'not a marker'",
    );
  });
});

describe("heredoc wrappers", () => {
  const inner = "*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch";
  const hunks = [
    {
      kind: "update",
      path: "file2.py",
      movePath: undefined,
      chunks: [{ changeContext: undefined, oldLines: ["import foo"], newLines: ["import foo", "bar"], isEndOfFile: false }],
    },
  ];

  test.each(["<<EOF", "<<'EOF'", '<<"EOF"'])("%s is unwrapped", (opener) => {
    expect(parsePatch(`${opener}\n${inner}\nEOF\n`).hunks).toEqual(hunks);
  });

  test("mismatched quotes are not unwrapped", () => {
    expect(errorOf(() => parsePatch(`<<"EOF'\n${inner}\nEOF\n`)).message).toBe("Invalid patch: The first line of the patch must be '*** Begin Patch'");
  });

  test("a heredoc without End Patch inside", () => {
    expect(errorOf(() => parsePatch("<<EOF\n*** Begin Patch\n*** Update File: file2.py\nEOF\n")).message).toBe(
      "Invalid patch: The last line of the patch must be '*** End Patch'",
    );
  });
});

describe("parseUpdateFileChunk", () => {
  test("a bad start", () => {
    const error = errorOf(() => parseUpdateFileChunk(["bad"], 123, false));
    expect(error.message).toBe("Invalid patch hunk on line 123: Expected update hunk to start with a @@ context marker, got: 'bad'");
  });

  test("nothing after the context marker", () => {
    expect(errorOf(() => parseUpdateFileChunk(["@@"], 123, false)).message).toBe("Invalid patch hunk on line 124: Update hunk does not contain any lines");
  });

  test("a bad diff line", () => {
    expect(errorOf(() => parseUpdateFileChunk(["@@", "bad"], 123, false)).message).toBe(
      "Invalid patch hunk on line 124: Unexpected line found in update hunk: 'bad'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
    );
  });

  test("End of File with no lines", () => {
    expect(errorOf(() => parseUpdateFileChunk(["@@", "*** End of File"], 123, false)).message).toBe(
      "Invalid patch hunk on line 124: Update hunk does not contain any lines",
    );
  });

  test("context and diff lines", () => {
    expect(parseUpdateFileChunk(["@@ change_context", "", " context", "-remove", "+add", " context2", "*** End Patch"], 123, false)).toEqual({
      chunk: {
        changeContext: "change_context",
        oldLines: ["", "context", "remove", "context2"],
        newLines: ["", "context", "add", "context2"],
        isEndOfFile: false,
      },
      consumed: 6,
    });
  });

  test("an End of File marker", () => {
    expect(parseUpdateFileChunk(["@@", "+line", "*** End of File"], 123, false)).toEqual({
      chunk: { changeContext: undefined, oldLines: [], newLines: ["line"], isEndOfFile: true },
      consumed: 3,
    });
  });
});
