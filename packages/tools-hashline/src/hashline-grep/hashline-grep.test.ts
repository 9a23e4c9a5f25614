import { ErrorCode } from "@grok-tools/runtime";
import { ripgrepFailure } from "./hashline-grep.js";

describe("hashline_grep: ripgrep's exit 2 with nothing found", () => {
  it("is bad input only when ripgrep refused the pattern, glob or type", () => {
    const regex = ripgrepFailure("regex parse error:\n    (\n    ^\nerror: unclosed group\n", "src");
    expect([regex.code, regex.message]).toEqual([ErrorCode.INVALID_INPUT, "rg failed: regex parse error:\n    (\n    ^\nerror: unclosed group"]);
    expect(regex.suggestion).toBe("Check the regular expression and the filters.");
    expect(ripgrepFailure("rg: error parsing glob '{a': unclosed alternate group", "").code).toBe(ErrorCode.INVALID_INPUT);
    expect(ripgrepFailure("rg: unrecognized file type: nope", "").code).toBe(ErrorCode.INVALID_INPUT);
  });

  it("is a failed search to retry when the search folder changed as it started", () => {
    const changed = ripgrepFailure("grok-tools: the search folder changed while the search started; search again\n", "src");
    expect([changed.code, changed.message]).toEqual([
      ErrorCode.EXECUTION_FAILED,
      "rg failed: grok-tools: the search folder changed while the search started; search again",
    ]);
    expect(changed.suggestion).toBe("Search again; if it fails again, search a narrower path.");
  });

  it("names the searched path when ripgrep said nothing (its messages are off)", () => {
    expect(ripgrepFailure("", "src/lib").message).toBe(
      "rg failed: the search of src/lib could not be completed (a file or folder changed or could not be read while it ran)",
    );
    expect(ripgrepFailure("  \n", "").message).toBe(
      "rg failed: the search of the workspace could not be completed (a file or folder changed or could not be read while it ran)",
    );
    expect(ripgrepFailure("", "x").code).toBe(ErrorCode.EXECUTION_FAILED);
  });
});
