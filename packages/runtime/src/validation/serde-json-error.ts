/**
 * Parses JSON text and, when it is malformed, words the failure as serde_json does
 * (`EOF while parsing a value at line 1 column 0`), so finalize messages match the reference.
 * Only the error text is serde's; the parsed value comes from JSON.parse.
 */

/** The outcome of {@link parseJsonLikeSerde}. */
export type SerdeJsonParse = { ok: true; value: unknown } | { ok: false; message: string };

class SerdeError extends Error {}

/** Parses `text`; on failure returns serde_json's message for the first problem. */
export function parseJsonLikeSerde(text: string): SerdeJsonParse {
  try {
    new Scanner(text).document();
  } catch (error) {
    if (error instanceof SerdeError) return { ok: false, message: error.message };
    throw error;
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    // The scanner accepted something JSON.parse did not: report it without a position.
    return { ok: false, message: (error as Error).message };
  }
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
/** serde_json's nesting limit. */
const RECURSION_LIMIT = 128;

/** A validating scanner that tracks serde's line/column (column = bytes since the line start). */
class Scanner {
  #pos = 0;
  #depth = 0;
  constructor(private readonly text: string) {}

  document(): void {
    this.#skipWs();
    this.#value();
    this.#skipWs();
    if (this.#pos < this.text.length) this.#fail("trailing characters", this.#pos + 1);
  }

  #value(): void {
    if (this.#pos >= this.text.length) this.#fail("EOF while parsing a value", this.#pos);
    const c = this.text[this.#pos]!;
    if (c === "{") return this.#object();
    if (c === "[") return this.#array();
    if (c === '"') return this.#string();
    if (c === "-" || (c >= "0" && c <= "9")) return this.#number();
    if (c === "t") return this.#ident("true");
    if (c === "f") return this.#ident("false");
    if (c === "n") return this.#ident("null");
    this.#fail("expected value", this.#pos + 1);
  }

  #enter(): void {
    this.#depth++;
    if (this.#depth > RECURSION_LIMIT) this.#fail("recursion limit exceeded", this.#pos + 1);
  }

  #object(): void {
    this.#enter();
    this.#pos++;
    this.#skipWs();
    if (this.#peek() === "}") {
      this.#depth--;
      return void this.#pos++;
    }
    for (;;) {
      this.#skipWs();
      if (this.#pos >= this.text.length) this.#fail("EOF while parsing an object", this.#pos);
      if (this.#peek() !== '"') this.#fail(this.#peek() === "}" ? "trailing comma" : "key must be a string", this.#pos + 1);
      this.#string();
      this.#skipWs();
      if (this.#pos >= this.text.length) this.#fail("EOF while parsing an object", this.#pos);
      if (this.#peek() !== ":") this.#fail("expected `:`", this.#pos + 1);
      this.#pos++;
      this.#skipWs();
      this.#value();
      this.#skipWs();
      if (this.#pos >= this.text.length) this.#fail("EOF while parsing an object", this.#pos);
      const c = this.#peek();
      this.#pos++;
      if (c === "}") return void this.#depth--;
      if (c !== ",") this.#fail("expected `,` or `}`", this.#pos);
    }
  }

  #array(): void {
    this.#enter();
    this.#pos++;
    this.#skipWs();
    if (this.#peek() === "]") {
      this.#depth--;
      return void this.#pos++;
    }
    for (;;) {
      this.#skipWs();
      if (this.#pos >= this.text.length) this.#fail("EOF while parsing a list", this.#pos);
      if (this.#peek() === "]") this.#fail("trailing comma", this.#pos + 1);
      this.#value();
      this.#skipWs();
      if (this.#pos >= this.text.length) this.#fail("EOF while parsing a list", this.#pos);
      const c = this.#peek();
      this.#pos++;
      if (c === "]") return void this.#depth--;
      if (c !== ",") this.#fail("expected `,` or `]`", this.#pos);
    }
  }

  #string(): void {
    this.#pos++;
    for (;;) {
      if (this.#pos >= this.text.length) this.#fail("EOF while parsing a string", this.#pos);
      const c = this.text[this.#pos]!;
      this.#pos++;
      if (c === '"') return;
      if (c === "\\") {
        if (this.#pos >= this.text.length) this.#fail("EOF while parsing a string", this.#pos);
        const e = this.text[this.#pos]!;
        this.#pos++;
        if (e === "u") {
          for (let k = 0; k < 4; k++) {
            if (this.#pos >= this.text.length) this.#fail("EOF while parsing a string", this.#pos);
            if (!/[0-9a-fA-F]/.test(this.text[this.#pos]!)) this.#fail("invalid escape", this.#pos + 1);
            this.#pos++;
          }
        } else if (!'"\\/bfnrt'.includes(e)) this.#fail("invalid escape", this.#pos);
      } else if (c < " ") this.#fail("control character (\\u0000-\\u001F) found while parsing a string", this.#pos);
    }
  }

  #number(): void {
    if (this.#peek() === "-") this.#pos++;
    if (this.#pos >= this.text.length) this.#fail("EOF while parsing a value", this.#pos);
    const first = this.#peek();
    if (first === "0") {
      this.#pos++;
      if (/[0-9]/.test(this.#peek())) this.#fail("invalid number", this.#pos + 1);
    } else if (/[1-9]/.test(first)) {
      while (/[0-9]/.test(this.#peek())) this.#pos++;
    } else this.#fail("invalid number", this.#pos + 1);
    if (this.#peek() === ".") {
      this.#pos++;
      if (this.#pos >= this.text.length) this.#fail("EOF while parsing a value", this.#pos);
      if (!/[0-9]/.test(this.#peek())) this.#fail("invalid number", this.#pos + 1);
      while (/[0-9]/.test(this.#peek())) this.#pos++;
    }
    if (this.#peek() === "e" || this.#peek() === "E") {
      this.#pos++;
      if (this.#peek() === "+" || this.#peek() === "-") this.#pos++;
      if (this.#pos >= this.text.length) this.#fail("EOF while parsing a value", this.#pos);
      if (!/[0-9]/.test(this.#peek())) this.#fail("invalid number", this.#pos + 1);
      while (/[0-9]/.test(this.#peek())) this.#pos++;
    }
  }

  #ident(word: string): void {
    for (let k = 0; k < word.length; k++) {
      if (this.#pos >= this.text.length) this.#fail("EOF while parsing a value", this.#pos);
      if (this.text[this.#pos] !== word[k]) this.#fail("expected ident", this.#pos + 1);
      this.#pos++;
    }
  }

  #peek(): string {
    return this.text[this.#pos] ?? "";
  }

  #skipWs(): void {
    while (this.#pos < this.text.length && WHITESPACE.has(this.text[this.#pos]!)) this.#pos++;
  }

  /** Throws `{message} at line L column C`; `upTo` is the count of characters consumed. */
  #fail(message: string, upTo: number): never {
    const consumed = this.text.slice(0, upTo);
    const lineStart = consumed.lastIndexOf("\n") + 1;
    const line = consumed.split("\n").length;
    const column = Buffer.byteLength(consumed.slice(lineStart), "utf8");
    throw new SerdeError(`${message} at line ${line} column ${column}`);
  }
}
