import { buildEditDetails } from "./edit.js";
import { SUMMARY_DETAILS_MAX, creationEcho, replacementEcho } from "./bounded-echo.js";

test("echoes the strings and every detail while they fit the budget", () => {
  const text = "a\nb\nNEW\nc\nNEW\n";
  expect(replacementEcho(text, "old", "NEW", [4, 10], 1000)).toEqual({
    old_string: "old",
    new_string: "NEW",
    edits: { details: buildEditDetails(text, "old", "NEW", [4, 10]) },
  });
  expect(creationEcho("hi\n", 1000)).toEqual({
    old_string: "",
    new_string: "hi\n",
    edits: { details: [{ old_string: "", old_line: 1, new_string: "hi\n", new_line: 1, context_before: "", context_after: "", line_prefix: "" }] },
  });
});

test("summarizes a creation too large to echo: sizes and line 1, no text", () => {
  const content = "x".repeat(600);
  expect(creationEcho(content, 1000)).toEqual({
    old_string: "",
    new_string: "",
    edits: { details: [{ old_string: "", old_line: 1, new_string: "", new_line: 1, context_before: "", context_after: "", line_prefix: "" }] },
    content_omitted: true,
    old_string_bytes: 0,
    new_string_bytes: 600,
    replacements: 1,
  });
});

test("summarizes many replacements with their first line numbers and counts the rest", () => {
  const count = SUMMARY_DETAILS_MAX + 500;
  const text = "b\n".repeat(count);
  const starts = Array.from({ length: count }, (_, i) => 2 * i);
  const echo = replacementEcho(text, "a", "b", starts, 10_000);
  expect(echo).toMatchObject({
    old_string: "",
    new_string: "",
    content_omitted: true,
    old_string_bytes: 1,
    new_string_bytes: 1,
    replacements: count,
    edits: { omitted: 500 },
  });
  expect(echo.edits.details).toHaveLength(SUMMARY_DETAILS_MAX);
  expect(echo.edits.details[999]).toEqual({
    old_string: "",
    old_line: 1000,
    new_string: "",
    new_line: 1000,
    context_before: "",
    context_after: "",
    line_prefix: "",
  });
});

test("numbers the lines of many replacements as counting from the start would", () => {
  const count = 2000;
  const text = "ab\n".repeat(count);
  const starts = Array.from({ length: count }, (_, i) => 3 * i);
  const details = buildEditDetails(text, "x", "ab", starts);
  expect(details.map((d) => d.old_line)).toEqual(starts.map((s) => text.slice(0, s).split("\n").length));
  expect(details).toHaveLength(count);
  expect(details[count - 1]).toMatchObject({ old_line: count, context_before: "ab\nab\nab\n", context_after: "" });
});
