/**
 * The command output buffer as it was at 04370f9 (every byte decoded, scans stopped early), kept
 * unchanged as the oracle of output-buffer.property.test.ts: the buffer that skips decoding the
 * middle of large chunks must keep exactly what this one keeps, for every input and chunking.
 */
import { StringDecoder } from "node:string_decoder";

/** The separator between the kept head and tail (the reference's front/back marker). */
const HEAD_TAIL_MARKER = "\n\n... (output truncated) ...\n\n";

// Code points are counted as the units that are not low surrogates (a pair counts once). Both scans
// stop as soon as they have their answer (issue #18): they used to walk the whole held text twice
// per chunk (once to count, once to find the cut), which with the decoding was most of the server's
// time streaming 64 MiB of output; now each chunk costs at most about `limit` units of scanning.

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

/**
 * Head/tail buffer with the reference's semantics: when the held text passes `limitChars`
 * characters, the first ⌊limit/2⌋ are frozen as the head (once), and the tail is cut to
 * its last ⌊limit/2⌋; the tail then grows again until it passes the limit itself.
 */
export class OracleOutputBuffer {
  readonly limitChars: number;
  #decoder = new StringDecoder("utf8");
  #head: string | undefined;
  #tail = "";
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
    return this.#tail;
  }

  /** Appends raw bytes (UTF-8, invalid sequences become U+FFFD). */
  push(chunk: Buffer): void {
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
  }

  /** The held output: the tail alone, or head (right-trimmed) + marker + tail (left-trimmed). */
  text(): string {
    if (this.#head === undefined) return this.#tail;
    return this.#head.trimEnd() + HEAD_TAIL_MARKER + this.#tail.trimStart();
  }

  #append(text: string): void {
    if (text === "") return;
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
