/**
 * The in-memory view of a command's output: the head frozen at the first overflow and a
 * bounded tail, counted in characters (spec §4.1, §13.5). Memory stays O(limit) however
 * much the command prints; the full text goes to the log file, not here. Large chunks are held
 * undecoded until their text is needed (issue #18).
 */
import { isUtf8 } from "node:buffer";
import { StringDecoder } from "node:string_decoder";

/** The separator between the kept head and tail (the reference's front/back marker). */
export const HEAD_TAIL_MARKER = "\n\n... (output truncated) ...\n\n";

// Code points are counted as the units that are not low surrogates (a pair counts once). Both scans
// stop as soon as they have their answer (issue #18): they used to walk the whole held text twice
// per chunk (once to count, once to find the cut), which with the decoding was most of the server's
// time streaming 64 MiB of output; now each chunk costs at most about `limit` units of scanning.

const LOW_SURROGATE = /[\uDC00-\uDFFF]/;

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** The index (UTF-16 units) where code point number `n` starts (the length when there are fewer). */
function unitIndexOfCodePoint(text: string, n: number): number {
  let seen = 0;
  for (let i = 0; i < text.length; i++) {
    if (isLowSurrogate(text.charCodeAt(i))) continue;
    if (seen === n) return i;
    seen++;
  }
  return text.length;
}

/**
 * Scanning back from the end: the index where the last `keep` code points start, when `text` has
 * more than `limit` code points (`keep` ≤ `limit`); undefined when it has `limit` or fewer.
 */
function cutIndexPastLimit(text: string, keep: number, limit: number): number | undefined {
  // A character is at least one unit: `limit` units or fewer are `limit` characters or fewer.
  if (text.length <= limit) return undefined;
  // Without a low surrogate, the last `limit + 1` units are as many characters: past the limit, and
  // the last `keep` characters are the last `keep` units. Most output is such text, and for text
  // of one byte per unit (Latin-1, which cannot hold a surrogate) V8 answers the test at once: the
  // count below walked `limit` units (100-130 µs here at the default 40 000) each time the tail passed
  // the limit, which a command printing in small reads makes once per `limit / 2` characters.
  if (!LOW_SURROGATE.test(text.slice(text.length - limit - 1))) return text.length - keep;
  let counted = 0;
  let cut = keep === 0 ? text.length : -1;
  for (let i = text.length - 1; i >= 0; i--) {
    if (isLowSurrogate(text.charCodeAt(i))) continue;
    counted++;
    if (counted === keep) cut = i;
    if (counted > limit) return cut;
  }
  return undefined;
}

/** Whether `byte` continues a UTF-8 sequence (0b10xxxxxx). */
function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/**
 * Whether `bytes[at - 1]` ends a whole character: an ASCII byte, or the last byte of a valid
 * multi-byte sequence starting inside `bytes`. UTF-8 decoding (Node's and V8's: each invalid
 * sequence becomes one U+FFFD and the byte that broke it is read again) is back at its start state
 * after such a byte whatever came before, so the text of the bytes before and after `at` decoded
 * apart is the text of all of them decoded together.
 */
function endsCharacter(bytes: Buffer, at: number): boolean {
  const last = bytes[at - 1]!;
  if (last < 0x80) return true;
  if (!isContinuation(last)) return false;
  let lead = at - 2;
  while (lead >= 0 && at - lead <= 4 && isContinuation(bytes[lead]!)) lead--;
  return lead >= 0 && at - lead <= 4 && isUtf8(bytes.subarray(lead, at));
}

/** How far from a wanted position a character boundary is looked for. */
const BOUNDARY_SEARCH_BYTES = 16;

/** The first `at` in [from, to] where {@link endsCharacter} holds; -1 when none. */
function boundaryAfter(bytes: Buffer, from: number, to: number): number {
  for (let at = Math.max(from, 1); at <= to; at++) if (endsCharacter(bytes, at)) return at;
  return -1;
}

/** The last `at` in [from, to] where {@link endsCharacter} holds; -1 when none. */
function boundaryBefore(bytes: Buffer, to: number, from: number): number {
  for (let at = to; at >= Math.max(from, 1); at--) if (endsCharacter(bytes, at)) return at;
  return -1;
}

/**
 * Whether `bytes[from, to)` decodes to more than `limit` code points. Each byte that is not a
 * continuation byte starts a character of its own, valid or not, so counting them gives a lower
 * bound (the exact count for valid UTF-8) without decoding; the count stops once past `limit`.
 */
function hasMoreCodePointsThan(bytes: Buffer, from: number, to: number, limit: number): boolean {
  if (to - from <= limit) return false;
  let starts = 0;
  let i = from;
  // Four bytes at a time where the buffer's memory allows an aligned 32-bit view.
  while (i < to && ((bytes.byteOffset + i) & 3) !== 0) if (!isContinuation(bytes[i++]!)) starts++;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, (to - i) >>> 2);
  for (let w = 0; w < words.length; w++) {
    const word = words[w]!;
    // The high bit of each continuation byte (10xxxxxx): bit 7 set, bit 6 clear.
    const continuation = word & ~(word << 1) & 0x80808080;
    starts += 4 - (Math.imul(continuation >>> 7, 0x01010101) >>> 24);
    if (starts > limit) return true;
  }
  for (i += words.length * 4; i < to; i++) if (!isContinuation(bytes[i]!)) starts++;
  return starts > limit;
}

/**
 * A chunk whose text replaces the whole tail, held undecoded: its text is `before`, then the
 * bytes `bytes[from, to)` decoded, then `after`.
 */
interface HeldChunk {
  before: string;
  bytes: Buffer;
  from: number;
  to: number;
  after: string;
}

/**
 * Head/tail buffer with the reference's semantics: when the held text passes `limitChars`
 * characters, the first ⌊limit/2⌋ are frozen as the head (once), and the tail is cut to
 * its last ⌊limit/2⌋; the tail then grows again until it passes the limit itself.
 *
 * What is kept depends on each chunk's text, not only on the stream's. Once the head is frozen, a
 * chunk of more than `limit` characters leaves a tail made only of its own end, whatever the tail
 * held before (see `#append`), so such a chunk is not decoded when it comes: only its first and last
 * few bytes go through the decoder (which keeps the state a sequence split between chunks needs),
 * and its text is made when the tail is read or when a smaller chunk must be added to it, at most
 * once per chunk and usually only for the last one. Decoding every byte was most of the server's
 * time streaming 64 MiB of output (issue #18).
 */
export class OutputBuffer {
  readonly limitChars: number;
  #decoder = new StringDecoder("utf8");
  #head: string | undefined;
  #tail = "";
  /** The latest large chunk, which replaces `#tail` once decoded. */
  #held: HeldChunk | undefined;
  #truncated = false;

  constructor(limitChars: number) {
    this.limitChars = Math.max(0, Math.floor(limitChars));
  }

  /** Whether anything was dropped from memory. */
  get truncated(): boolean {
    return this.#truncated;
  }

  /** The latest part of the output (what a progress notification carries). */
  get tail(): string {
    this.#decodeHeld();
    return this.#tail;
  }

  /**
   * Appends raw bytes (UTF-8, invalid sequences become U+FFFD). The buffer may keep a reference
   * to `chunk` until the next push: the caller must not change its bytes.
   */
  push(chunk: Buffer): void {
    if (this.#head !== undefined && this.#hold(chunk)) return;
    this.#append(this.#decoder.write(chunk));
  }

  /** Flushes a partial trailing UTF-8 sequence at end of stream. */
  end(): void {
    this.#append(this.#decoder.end());
  }

  /** Drops the held text (a completed task's log file has it all). */
  clear(): void {
    this.#head = undefined;
    this.#tail = "";
    this.#held = undefined;
  }

  /** The held output: the tail alone, or head (right-trimmed) + marker + tail (left-trimmed). */
  text(): string {
    this.#decodeHeld();
    if (this.#head === undefined) return this.#tail;
    return this.#head.trimEnd() + HEAD_TAIL_MARKER + this.#tail.trimStart();
  }

  /**
   * Takes `chunk` without decoding its middle when its text has more than `limit` characters
   * (the head being frozen, it then replaces the tail whatever it held). False, with nothing
   * done, when that is not known cheaply.
   */
  #hold(chunk: Buffer): boolean {
    const limit = this.limitChars;
    const length = chunk.length;
    // The decoder reads the first bytes (finishing a character the previous chunk split) and the
    // last ones (keeping back a character this chunk splits). At least 4 bytes after `to`: the
    // decoder looks for a split character in up to the last 4 bytes it is given, so it sees the
    // same bytes as if given the whole chunk.
    if (length <= limit + 2 * BOUNDARY_SEARCH_BYTES + 4) return false;
    const from = boundaryAfter(chunk, 1, BOUNDARY_SEARCH_BYTES);
    const to = boundaryBefore(chunk, length - 4, length - 4 - BOUNDARY_SEARCH_BYTES);
    if (from < 0 || to < 0 || !hasMoreCodePointsThan(chunk, from, to, limit)) return false;
    const before = this.#decoder.write(chunk.subarray(0, from));
    const after = this.#decoder.write(chunk.subarray(to));
    this.#held = { before, bytes: chunk, from, to, after };
    this.#tail = "";
    return true;
  }

  /** Makes the tail of the held chunk, if any. */
  #decodeHeld(): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    const { bytes, from, to, after } = held;
    const limit = this.limitChars;
    // The tail is made from the chunk's end alone (see `#append`): when the chunk's text has
    // 2 × limit + 2 UTF-16 units or more, from its last 2 × limit (2 × limit − 1 where that would
    // split a pair); else from all of it, then cut to its last ⌊limit/2⌋ characters when it has more
    // than `limit`. So a suffix of the text decoded from a character boundary gives the same tail
    // when it has 2 × limit + 2 units, or when it has more than `limit` characters in at most
    // 2 × limit − 1 units (the suffix then lies within those last units, whose characters are
    // therefore more than `limit` too). Tried with a suffix about right for one byte per character
    // (ASCII, random bytes), then one long enough for any text (at most 3 bytes per UTF-16 unit),
    // then the whole chunk.
    for (const wanted of [Math.ceil(1.25 * (limit + 1)), 3 * (2 * limit + 2)]) {
      const start = to - wanted - BOUNDARY_SEARCH_BYTES;
      const at = start > from ? boundaryBefore(bytes, start, start - BOUNDARY_SEARCH_BYTES) : -1;
      if (at <= from) break;
      const end = bytes.toString("utf8", at, to) + after;
      const enough = end.length >= 2 * limit + 2 || (end.length < 2 * limit && cutIndexPastLimit(end, 0, limit) !== undefined);
      if (enough) {
        this.#append(end);
        return;
      }
    }
    this.#append(held.before + bytes.toString("utf8", from, to) + after);
  }

  #append(text: string): void {
    if (text === "") return;
    this.#decodeHeld();
    const half = Math.floor(this.limitChars / 2);
    // A chunk that alone is far past the limit leaves only its own end in the tail; skipping
    // the rest keeps a multi-GiB stream linear without changing what is kept.
    if (this.#head !== undefined && text.length >= 2 * this.limitChars + 2) {
      let start = text.length - 2 * this.limitChars;
      const unit = text.charCodeAt(start);
      if (unit >= 0xdc00 && unit <= 0xdfff) start++;
      this.#tail = text.slice(start);
    } else {
      this.#tail += text;
    }
    if (this.#tail.length <= this.limitChars) return;
    const cut = cutIndexPastLimit(this.#tail, half, this.limitChars);
    if (cut === undefined) return;
    if (this.#head === undefined) this.#head = this.#tail.slice(0, unitIndexOfCodePoint(this.#tail, half));
    this.#tail = this.#tail.slice(cut);
    this.#truncated = true;
  }
}
