/**
 * Unit tests of the shell helpers: the `&` scanner (both contracts), the pkill guard,
 * ANSI stripping, soft wrapping, size formatting, lenient values and bare-echo detection.
 */
import { lenientBool, lenientOptionalInteger, lenientStringList } from "@grok-tools/runtime/helpers";
import { containsBackgroundOperator, endsWithWaitBuiltin, hasBackgroundOperator, hasTrailingBackgroundOperator } from "./background-operator.js";
import { findSelfMatchingPkill } from "./pkill-guard.js";
import { formatBytes, formatWaitedDuration, softWrapLines, stripAnsi } from "./text.js";
import { isBareEcho, isBarePrintf } from "./bare-echo.js";

describe("background operator", () => {
  it.each([
    ["sleep 1 &", true],
    ["a & b", true],
    ["a && b", false],
    ["cmd &> out", false],
    ["cmd &>> out", false],
    ["cmd 2>&1", false],
    ["cmd <&3", false],
    ["echo \\&", false],
    ["echo '&'", false],
    ['echo "a & b"', false],
    ["cat <<EOF\na & b\nEOF\necho ok", false],
    ["cat <<-'EOF'\n\ta & b\n\tEOF\nx &", true],
    ["cat <<<'a & b'", false],
  ])("current scan of %j is %s", (command, expected) => {
    expect(containsBackgroundOperator(command)).toBe(expected);
  });

  it("allows a trailing wait in the current contract only", () => {
    expect(endsWithWaitBuiltin("a & b & wait;\n")).toBe(true);
    expect(hasBackgroundOperator("a & b & wait", false)).toBe(false);
    expect(hasBackgroundOperator("a & b", false)).toBe(true);
    expect(hasBackgroundOperator("a & b", true)).toBe(false);
    expect(hasTrailingBackgroundOperator("a &  ")).toBe(true);
    expect(hasTrailingBackgroundOperator("a &&")).toBe(false);
    expect(hasTrailingBackgroundOperator("a >&")).toBe(false);
  });
});

describe("pkill guard", () => {
  it("flags self-matching patterns and leaves the rest", () => {
    expect(findSelfMatchingPkill("pkill -f ./server; ./server")).toEqual({ cmd: "pkill", pattern: "./server" });
    expect(findSelfMatchingPkill("pkill -f 'npm run dev' && npm run dev")).toEqual({ cmd: "pkill", pattern: "npm run dev" });
    expect(findSelfMatchingPkill("pgrep -f worker.py | xargs kill && python worker.py")).toEqual({ cmd: "pgrep", pattern: "worker.py" });
    expect(findSelfMatchingPkill("pgrep -f worker.py && python worker.py")).toBeUndefined();
    expect(findSelfMatchingPkill("pkill -f ./server")).toBeUndefined();
    expect(findSelfMatchingPkill("pkill -x server; ./server")).toBeUndefined();
    expect(findSelfMatchingPkill("pkill -f ab; ab")).toBeUndefined();
    expect(findSelfMatchingPkill('pkill -f "$(cat pid)"; cat pid')).toBeUndefined();
  });
});

describe("text", () => {
  it("strips escapes and controls but keeps newlines and tabs", () => {
    expect(stripAnsi("\x1b[31mred\x1b[0m\r\n\ta\x1b]0;title\x07b\x1b(Bc")).toBe("red\n\tabc");
    expect(stripAnsi("plain")).toBe("plain");
  });

  it("soft-wraps like str::lines", () => {
    expect(softWrapLines("abcde\r\nxy\n", 2)).toBe("ab\ncd\ne\nxy\n");
    expect(softWrapLines("", 2)).toBe("");
    expect(softWrapLines("a\n\n", 2)).toBe("a\n\n");
  });

  it("formats sizes and waits", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(1024 * 1024 * 20)).toBe("20.0 MB");
    expect(formatWaitedDuration(999)).toBe("999ms");
    expect(formatWaitedDuration(61_500)).toBe("61s");
  });
});

describe("lenient values", () => {
  it("parses booleans, integers and id lists", () => {
    expect([" Yes ", "0", 1, null, "maybe"].map(lenientBool)).toEqual([true, false, true, false, "maybe"]);
    expect(["120", "5.0", null, 7, "x"].map(lenientOptionalInteger)).toEqual([120, 5, undefined, 7, "x"]);
    expect(lenientStringList("a")).toEqual(["a"]);
    expect(lenientStringList(5)).toEqual(["5"]);
    expect(lenientStringList(null)).toEqual([]);
  });
});

describe("bare echo", () => {
  it("recognises narration only", () => {
    expect(isBareEcho('echo "done"')).toBe(true);
    expect(isBareEcho("echo -ne 'x'")).toBe(true);
    expect(isBareEcho("echo $HOME")).toBe(false);
    expect(isBareEcho("echoing")).toBe(false);
    expect(isBarePrintf("printf 'hi %s' you")).toBe(true);
    expect(isBarePrintf("printf -v x hi")).toBe(false);
  });
});
