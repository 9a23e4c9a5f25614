/**
 * The four matching tiers of seekSequence (reference seek_sequence.rs tests plus tier boundaries).
 */
import { describe, expect, test } from "@jest/globals";
import { normalisePunctuation, seekSequence } from "./seek-sequence.js";

describe("seekSequence", () => {
  test("exact match", () => {
    expect(seekSequence(["foo", "bar", "baz"], ["bar", "baz"], 0, false)).toBe(1);
  });
  test("trailing whitespace is ignored in tier 2", () => {
    expect(seekSequence(["foo   ", "bar\t\t"], ["foo", "bar"], 0, false)).toBe(0);
  });
  test("surrounding whitespace is ignored in tier 3", () => {
    expect(seekSequence(["    foo   ", "   bar\t"], ["foo", "bar"], 0, false)).toBe(0);
  });
  test("a pattern longer than the input never matches", () => {
    expect(seekSequence(["just one line"], ["too", "many", "lines"], 0, false)).toBeUndefined();
  });
  test("an empty pattern matches at start", () => {
    expect(seekSequence(["foo", "bar"], [], 1, false)).toBe(1);
  });
  test("eof searches only at the end", () => {
    expect(seekSequence(["a", "b", "c", "b", "c"], ["b", "c"], 0, false)).toBe(1);
    expect(seekSequence(["a", "b", "c", "b", "c"], ["b", "c"], 0, true)).toBe(3);
    expect(seekSequence(["b", "c", "x"], ["b", "c"], 0, true)).toBeUndefined();
  });
  test("Unicode dashes match ASCII in tier 4", () => {
    expect(seekSequence(["hello \u2013 world"], ["hello - world"], 0, false)).toBe(0);
  });
  test("an exact match later wins over a fuzzy match earlier", () => {
    expect(seekSequence(["foo ", "foo"], ["foo"], 0, false)).toBe(1);
  });
  test("the search starts at start", () => {
    expect(seekSequence(["x", "y", "x"], ["x"], 1, false)).toBe(2);
  });
  test("Rust whitespace, not JavaScript whitespace, is trimmed", () => {
    // U+FEFF is whitespace to JavaScript's trim but not to Rust's.
    expect(seekSequence(["\uFEFFfoo"], ["foo"], 0, false)).toBeUndefined();
    // U+0085 is whitespace to Rust but not to JavaScript.
    expect(seekSequence(["foo\u0085"], ["foo"], 0, false)).toBe(0);
  });
});

describe("normalisePunctuation", () => {
  test("folds dashes, quotes and spaces", () => {
    expect(normalisePunctuation("\u2018a\u2019 \u201Cb\u201D\u00A0c\u2212d\u3000e")).toBe("'a' \"b\" c-d e");
  });
});
