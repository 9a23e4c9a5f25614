/**
 * The command output buffer decodes only the ends of large chunks since issue #18; what it keeps
 * must not change. Oracle: the buffer as it was before (test/output-buffer-oracle.ts), fed the same
 * random byte streams cut into the same random chunks: ASCII, CR/LF, 2-, 3- and 4-byte characters
 * split across chunks, invalid UTF-8 (stray continuation bytes, truncated and overlong sequences,
 * surrogates, bytes that never occur), and chunk sizes around the limit and the buffer's own
 * thresholds. Read at random moments too, since reading the tail decodes what was held.
 */
import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { OutputBuffer } from "../src/output-buffer.js";
import { OracleOutputBuffer } from "./output-buffer-oracle.js";

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("a", "line\n", "\r\n", "\r", "  ", "\t", "é", "中", "😀", "\uFFFD", "\u{10FFFF}").map((s) => Buffer.from(s)) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        [0x80],
        [0xbf, 0x80],
        [0xc3],
        [0xe2, 0x82],
        [0xf0, 0x9f, 0x98],
        [0xc0, 0x80],
        [0xe0, 0x80, 0x80],
        [0xed, 0xa0, 0x80],
        [0xf4, 0x90, 0x80, 0x80],
        [0xf8, 0x88, 0x80, 0x80, 0x80],
        [0xff],
        [0xfe],
      )
      .map((b) => Buffer.from(b)),
  },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b)) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 16 }).map((s) => Buffer.from(s)) },
);

/** A stream: pieces repeated into runs, so that long runs of one kind (all ASCII, all emoji) occur. */
const stream = fc
  .array(fc.tuple(piece, fc.integer({ min: 1, max: 60 })), { minLength: 1, maxLength: 40 })
  .map((runs) => Buffer.concat(runs.flatMap(([bytes, times]) => Array.from({ length: times }, () => bytes))));

/** Chunk sizes: mostly small, some around and well past the limit. */
const sizes = fc.array(fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 120 }), fc.integer({ min: 100, max: 1200 })), {
  minLength: 1,
  maxLength: 60,
});

const limit = fc.oneof(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 200 }));

/** What a caller reads after each chunk: nothing, the tail, or the whole text. */
const reads = fc.array(fc.constantFrom("none", "none", "none", "tail", "text"), { minLength: 60, maxLength: 60 });

function feed(bytes: Buffer, cuts: readonly number[], limitChars: number, reading: readonly string[]): void {
  const ours = new OutputBuffer(limitChars);
  const oracle = new OracleOutputBuffer(limitChars);
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = cuts[i % cuts.length]!;
    const chunk = bytes.subarray(at, at + size);
    at += size;
    ours.push(chunk);
    oracle.push(chunk);
    const read = reading[i % reading.length];
    if (read === "tail") expect(ours.tail).toBe(oracle.tail);
    if (read === "text") expect(ours.text()).toBe(oracle.text());
    expect(ours.truncated).toBe(oracle.truncated);
  }
  expect(ours.text()).toBe(oracle.text());
  ours.end();
  oracle.end();
  expect(ours.text()).toBe(oracle.text());
  expect(ours.tail).toBe(oracle.tail);
  expect(ours.truncated).toBe(oracle.truncated);
}

describe("OutputBuffer keeps exactly what the fully decoding buffer kept", () => {
  test("random streams, random chunks, random reads", () => {
    fc.assert(
      fc.property(stream, sizes, limit, reads, (bytes, cuts, limitChars, reading) => feed(bytes, cuts, limitChars, reading)),
      { numRuns: 400 },
    );
  });

  test("random bytes in large chunks, as a binary file printed by cat", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 20_000 }).map((b) => Buffer.from(b)),
        fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 600 }),
        reads,
        (bytes, cuts, limitChars, reading) => feed(bytes, cuts, limitChars, reading),
      ),
      { numRuns: 200 },
    );
  });

  test("text of one character width, in chunks just above and below the thresholds", () => {
    const width = fc.constantFrom("a", "é", "中", "😀", "\uFFFD");
    fc.assert(
      fc.property(
        width,
        fc.integer({ min: 0, max: 64 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: -6, max: 6 }),
        reads,
        (char, limitChars, perChunk, skew, reading) => {
          const unit = Buffer.byteLength(char);
          // Chunks of about `perChunk` × the sizes where the buffer starts holding chunks undecoded.
          const size = Math.max(1, (limitChars + 36) * perChunk + skew * unit + (skew % unit));
          const bytes = Buffer.from(char.repeat(Math.ceil((size * 12) / unit)));
          feed(bytes, [size, size + 1, size - 1 > 0 ? size - 1 : 1], limitChars, reading);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("mostly astral text with some ASCII, read after every chunk (the tail's length in units decides its cut)", () => {
    const text = fc
      .array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom("😀", "\u{10FFFF}") }, { weight: 1, arbitrary: fc.constantFrom("a", "\n") }), {
        minLength: 50,
        maxLength: 1500,
      })
      .map((chars) => Buffer.from(chars.join("")));
    fc.assert(
      fc.property(
        text,
        fc.array(fc.integer({ min: 40, max: 400 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 60 }),
        (bytes, cuts, limitChars) => feed(bytes, cuts, limitChars, ["tail"]),
      ),
      { numRuns: 500 },
    );
  });

  test("the 64 MiB benchmark's shape, scaled down: random bytes in 64 KiB chunks, default-like limit", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom(2_000, 20_000), (seed, limitChars) => {
        let x = seed;
        const bytes = Buffer.alloc(6 * 65_536);
        for (let i = 0; i < bytes.length; i++) {
          x = (x * 1103515245 + 12345) % 2 ** 31;
          bytes[i] = x >>> 23;
        }
        feed(bytes, [65_536, 65_536, 1_000, 65_536, 40_000], limitChars, ["none", "none", "tail", "none", "none", "text"]);
      }),
      { numRuns: 10 },
    );
  });
});
