// The read window against a reference made the plain way (spec §4.2): the text split into pieces that
// keep their newline, the window's pieces taken, each line's body without its newline (and without a
// `\r` right before it), `N→` on the window's first line and every tenth, a trailing empty line after a
// final newline. extractFileContentLines takes a faster path for text with no `\r` and no data URI
// (issue #18), so texts with and without them are drawn.
import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { extractFileContentLines, resolveReadStartLine } from "./window.js";

function referenceWindow(text: string, offset: number | undefined, limit: number | undefined, totalLines: number): { content: string; rawOutput: string } {
  const pieces: string[] = [];
  for (let pos = 0; pos < text.length;) {
    const newline = text.indexOf("\n", pos);
    const end = newline === -1 ? text.length : newline + 1;
    pieces.push(text.slice(pos, end));
    pos = end;
  }
  const skip = resolveReadStartLine(text, offset) - 1;
  const take = limit ?? Number.MAX_SAFE_INTEGER;
  const lines: string[] = [];
  if (text === "" && totalLines > 0 && skip === 0 && take > 0) lines.push("1→");
  const taken = take > 0 ? pieces.slice(skip, skip + take) : [];
  taken.forEach((piece, k) => {
    const lineNumber = skip + k + 1;
    const body = piece.endsWith("\r\n") ? piece.slice(0, -2) : piece.endsWith("\n") ? piece.slice(0, -1) : piece;
    lines.push(k === 0 || lineNumber % 10 === 0 ? `${lineNumber}→${body}` : body);
  });
  if (text.endsWith("\n") && pieces.length >= skip && pieces.length < skip + take) {
    const lineNumber = pieces.length + 1;
    lines.push(lines.length === 0 || lineNumber % 10 === 0 ? `${lineNumber}→` : "");
  }
  let rawOutput = taken.join("");
  if (rawOutput.endsWith("\r\n")) rawOutput = `${rawOutput.slice(0, -2)}\n`;
  return { content: lines.join("\n"), rawOutput };
}

/** Lines of a few characters, some empty, joined by newlines; `\r` only when asked. */
const textArb = (withCarriageReturns: boolean) =>
  fc
    .array(fc.string({ unit: fc.constantFrom(...["a", "b", " ", "→", "é", ...(withCarriageReturns ? ["\r"] : [])]), maxLength: 6 }), { maxLength: 45 })
    .chain((lines) => fc.constantFrom(lines.join("\n"), lines.join("\n") + "\n", lines.join(withCarriageReturns ? "\r\n" : "\n")));

const windowArb = fc.record({
  offset: fc.option(fc.integer({ min: -50, max: 50 }), { nil: undefined }),
  limit: fc.option(fc.integer({ min: 0, max: 50 }), { nil: undefined }),
});

function totalLinesOf(text: string): number {
  return text.split("\n").length + (text !== "" && !text.endsWith("\n") ? 1 : 0);
}

describe("read window", () => {
  test.each([
    ["without \\r (the plain path)", false],
    ["with \\r (line by line)", true],
  ])("matches the reference for any text and window, %s", (_name, withCarriageReturns) => {
    fc.assert(
      fc.property(textArb(withCarriageReturns), windowArb, (text, { offset, limit }) => {
        const totalLines = totalLinesOf(text);
        const got = extractFileContentLines(text, offset, limit, totalLines);
        const want = referenceWindow(text, offset, limit, totalLines);
        expect({ content: got.content, rawOutput: got.rawOutput }).toEqual(want);
        expect(got.extractedImages).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  test("a 2 000-line text: anchors on the first line and every tenth, the rest as in the file", () => {
    const text = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const { content, rawOutput } = extractFileContentLines(text, 995, 30, 2001);
    expect(content.split("\n").slice(0, 7)).toEqual(["995→line 995", "line 996", "line 997", "line 998", "line 999", "1000→line 1000", "line 1001"]);
    expect(content.split("\n")).toHaveLength(30);
    expect(rawOutput).toBe(text.split("\n").slice(994, 1024).join("\n") + "\n");
  });
});
