/**
 * Property tests of the truncation helpers (issue #19): head/tail truncation keeps at most `limit`
 * characters of the original, as an untouched prefix and suffix around exactly one marker; the
 * UTF-8 cut never exceeds its byte budget, never splits a code point, and is idempotent; stream
 * chunks put back together are the original bytes.
 */
import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { chunkUtf8 } from "../output/stream-chunks.js";
import { TRUNCATION_MARKER, truncateHeadTail, truncateUtf8 } from "./head-tail.js";

/** Text with astral characters, combining marks, newlines and the marker's own characters. */
const text = fc.string({
  unit: fc.oneof(fc.constantFrom("a", "\n", ".", " ", "é", "\u0301", "😀", "\u{10FFFF}", "中"), fc.string({ unit: "binary", minLength: 1, maxLength: 1 })),
  maxLength: 300,
});
const limit = fc.integer({ min: 0, max: 320 });

/** A string holds a lone surrogate (half a code point). */
const hasLoneSurrogate = (s: string): boolean => /\p{Cs}/u.test(s);

describe("truncateHeadTail", () => {
  test("keeps the text whole when it fits, else at most `limit` characters as prefix + marker + suffix", () => {
    fc.assert(
      fc.property(text, limit, (t, n) => {
        const chars = Array.from(t);
        const result = truncateHeadTail(t, n);
        expect(result.totalChars).toBe(chars.length);
        if (chars.length <= n) {
          expect(result).toEqual({ text: t, truncated: false, shownChars: chars.length, totalChars: chars.length });
          return;
        }
        expect(result.truncated).toBe(true);
        expect(result.shownChars).toBeLessThanOrEqual(n);
        const half = Math.floor(n / 2);
        const head = chars.slice(0, half).join("");
        const tail = half > 0 ? chars.slice(chars.length - half).join("") : "";
        expect(result.text).toBe(head + TRUNCATION_MARKER + tail);
        expect(Array.from(result.text).length).toBeLessThanOrEqual(n + Array.from(TRUNCATION_MARKER).length);
        expect(hasLoneSurrogate(result.text)).toBe(hasLoneSurrogate(head) || hasLoneSurrogate(tail));
      }),
      { numRuns: 500 },
    );
  });

  test("a custom marker appears once between head and tail, whatever the text holds", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 100 }), fc.string({ minLength: 1, maxLength: 10 }), (t, n, marker) => {
        const result = truncateHeadTail(t, n, marker);
        if (!result.truncated) return;
        const half = Math.floor(n / 2);
        const chars = Array.from(t);
        expect(result.text.startsWith(chars.slice(0, half).join(""))).toBe(true);
        expect(result.text.endsWith(chars.slice(chars.length - half).join(""))).toBe(true);
        expect(result.text.length).toBe(chars.slice(0, half).join("").length + marker.length + chars.slice(chars.length - half).join("").length);
      }),
      { numRuns: 300 },
    );
  });
});

describe("truncateUtf8", () => {
  test("never exceeds the byte budget, is a prefix on code point boundaries, and is idempotent", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: -5, max: 1300 }), (t, maxBytes) => {
        const result = truncateUtf8(t, maxBytes);
        const bytes = Buffer.byteLength(result.text, "utf8");
        expect(bytes).toBeLessThanOrEqual(Math.max(0, maxBytes));
        expect(result.truncated).toBe(Buffer.byteLength(t, "utf8") > Math.max(0, maxBytes));
        if (!result.truncated) expect(result.text).toBe(t);
        // A prefix of the bytes, ending on a code point boundary: decoding added no U+FFFD.
        expect(Buffer.from(t, "utf8").subarray(0, bytes).equals(Buffer.from(result.text, "utf8"))).toBe(true);
        // At most 3 bytes short of the budget: only a code point split at the boundary is dropped.
        if (result.truncated) expect(Math.max(0, maxBytes) - bytes).toBeLessThan(4);
        expect(truncateUtf8(result.text, maxBytes)).toEqual({ text: result.text, truncated: false });
      }),
      { numRuns: 500 },
    );
  });
});

describe("chunkUtf8", () => {
  test("chunks are at most the chunk size, start on code points, and concatenate to the original", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: -3, max: 40 }), (t, size) => {
        const chunks = chunkUtf8(t, size);
        const bytes = Buffer.from(t, "utf8");
        const max = Math.max(4, Math.floor(size));
        let offset = 0;
        for (const chunk of chunks) {
          expect(chunk.offset).toBe(offset);
          expect(chunk.data.length).toBeGreaterThan(0);
          expect(chunk.data.length).toBeLessThanOrEqual(max);
          // Each chunk decodes on its own: it neither starts nor ends inside a code point.
          expect(Buffer.from(Buffer.from(chunk.data).toString("utf8"), "utf8").equals(Buffer.from(chunk.data))).toBe(true);
          offset += chunk.data.length;
        }
        expect(Buffer.concat(chunks.map((c) => Buffer.from(c.data))).equals(bytes)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
