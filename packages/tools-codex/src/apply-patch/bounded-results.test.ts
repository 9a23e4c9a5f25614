import { boundFileResults } from "./bounded-results.js";
import type { ApplyPatchFileResult } from "./schema.js";

const lines = (n: number, tag = "") => Array.from({ length: n }, (_, i) => `line ${i}${tag}\n`).join("");

test("keeps full texts while the reply stays within the budget", () => {
  const results: ApplyPatchFileResult[] = [
    { path: "/w/a", action: "modified", old_text: "a\n", new_text: "b\n" },
    { path: "/w/b", action: "added", new_text: "new\n" },
    { path: "/w/c", action: "deleted", old_text: "gone\n", new_text: "" },
  ];
  expect(boundFileResults(results, 100)).toEqual(results);
});

test("summarizes a large file with sizes and a unified diff instead of its texts", () => {
  const oldText = lines(20_000);
  const newText = oldText.replace("line 10000\n", "line ten thousand\n");
  const [bounded] = boundFileResults([{ path: "/w/big.txt", action: "modified", old_text: oldText, new_text: newText }], 64 * 1024);
  expect(bounded).toEqual({
    path: "/w/big.txt",
    action: "modified",
    content_omitted: true,
    old_bytes: Buffer.byteLength(oldText),
    new_bytes: Buffer.byteLength(newText),
    diff: expect.stringContaining("@@ -9998,7 +9998,7 @@\n line 9997\n line 9998\n line 9999\n-line 10000\n+line ten thousand\n line 10001\n"),
  });
  expect(bounded!.diff!.startsWith("--- /w/big.txt\n+++ /w/big.txt\n@@ ")).toBe(true);
});

test("counts the budget over the whole reply, and leaves out a diff that does not fit", () => {
  const small = { path: "/w/small", action: "modified" as const, old_text: "x\n", new_text: "y\n" };
  const rewritten = { path: "/w/all", action: "modified" as const, old_text: lines(5000), new_text: lines(5000, "!") };
  const [first, second, third] = boundFileResults([small, rewritten, small], 1000);
  expect(first).toEqual(small);
  // Every line changed: too many edits for a diff, and too large for what is left.
  expect(second).toEqual({
    path: "/w/all",
    action: "modified",
    content_omitted: true,
    old_bytes: rewritten.old_text.length,
    new_bytes: rewritten.new_text.length,
  });
  expect(third).toEqual(small);
});

test("a move's diff names both paths; an added file too large to show has only its size", () => {
  const big = lines(50_000);
  const [moved, added] = boundFileResults(
    [
      { path: "/w/from", action: "moved", old_text: big, new_text: big.replace("line 1\n", "line one\n"), move_to: "/w/to" },
      { path: "/w/new", action: "added", new_text: big },
    ],
    64 * 1024,
  );
  expect(moved!.diff).toContain("--- /w/from\n+++ /w/to\n");
  expect(added).toEqual({ path: "/w/new", action: "added", content_omitted: true, old_bytes: 0, new_bytes: big.length });
});
