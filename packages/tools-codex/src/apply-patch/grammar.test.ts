/**
 * The parser agrees with the grammar the model is shown: sentences generated from PATCH_GRAMMAR (read
 * by a small EBNF interpreter) parse into the file operations they were built from. Where the parser is
 * stricter than the grammar text, the difference is pinned by an explicit test below.
 */
import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { ErrorCode, ToolError } from "@grok-tools/runtime";
import { PATCH_GRAMMAR, PATCH_GRAMMAR_LINES } from "./grammar.js";
import { parsePatch, type Hunk } from "./parser.js";
import { loadDescription } from "../shared/description.js";

const APPLY_PATCH_DESCRIPTION = loadDescription(import.meta.url);

type Node = { t: "alt"; options: Node[][] } | { t: "lit"; text: string } | { t: "ref"; name: string } | { t: "rep"; body: Node } | { t: "opt"; body: Node };

/** Reads `Name := expr` rules written with `|`, `{ }`, `[ ]`, `( )` and double-quoted literals. */
function readGrammar(text: string): Map<string, Node> {
  const rules = new Map<string, Node>();
  for (const line of text.split("\n")) {
    const match = /^(\w+) := (.*)$/.exec(line);
    if (!match) throw new Error(`not a rule: ${line}`);
    const tokens = (match[2] as string).match(/"[^"]*"|\w+|[{}[\]()|]/g) ?? [];
    let pos = 0;
    const parseAlt = (): Node => {
      const options: Node[][] = [[]];
      while (pos < tokens.length) {
        const token = tokens[pos] as string;
        if (token === "}" || token === "]" || token === ")") break;
        pos += 1;
        if (token === "|") options.push([]);
        else if (token === "{" || token === "[" || token === "(") {
          const body = parseAlt();
          pos += 1; // the closing bracket
          (options[options.length - 1] as Node[]).push(token === "{" ? { t: "rep", body } : token === "[" ? { t: "opt", body } : body);
        } else if (token.startsWith('"')) (options[options.length - 1] as Node[]).push({ t: "lit", text: token.slice(1, -1) });
        else (options[options.length - 1] as Node[]).push({ t: "ref", name: token });
      }
      return { t: "alt", options };
    };
    rules.set(match[1] as string, parseAlt());
  }
  return rules;
}

const RULES = readGrammar(PATCH_GRAMMAR);
const TEXT_ALPHABET = ["a", "b", "Z", " ", "\t", "*", "@", "+", "-", "#", "é", "\u2013", "\u201C", "☃", "{", "}"];
const PATH_ALPHABET = ["a", "b", "c", "/", ".", "_", "-", "1"];

/** A small deterministic generator driven by a seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A sentence of the grammar and the hunks it describes. */
function generate(seed: number): { patch: string; hunks: Hunk[] } {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const word = (alphabet: readonly string[], min: number, max: number): string => {
    const length = min + Math.floor(next() * (max - min + 1));
    return Array.from({ length }, () => pick(alphabet)).join("");
  };
  const hunks: Hunk[] = [];
  const stack: string[] = [];
  let prefix = "";
  let out = "";
  const current = (): Hunk => hunks[hunks.length - 1] as Hunk;
  const lastChunk = () => {
    const hunk = current();
    if (hunk.kind !== "update") throw new Error("no update hunk");
    return hunk.chunks[hunk.chunks.length - 1] as (typeof hunk.chunks)[number];
  };

  const terminal = (name: string): string => {
    switch (name) {
      case "NEWLINE":
        return "\n";
      case "path": {
        const value = `${word(PATH_ALPHABET, 0, 6)}f.txt`;
        const hunk = current();
        hunk.path = value;
        return value;
      }
      case "newPath": {
        const value = `moved/${word(PATH_ALPHABET, 0, 4)}g.txt`;
        const hunk = current();
        if (hunk.kind === "update") hunk.movePath = value;
        return value;
      }
      case "line": {
        const value = word(TEXT_ALPHABET, 0, 8);
        const hunk = current();
        if (hunk.kind === "add") hunk.contents += `${value}\n`;
        return value;
      }
      case "header": {
        // The parser reads `@@ {context}`: a header is separated from `@@` by one space.
        const value = word(TEXT_ALPHABET, 0, 8);
        lastChunk().changeContext = value;
        return ` ${value}`;
      }
      case "text": {
        const value = word(TEXT_ALPHABET, 0, 8);
        const chunk = lastChunk();
        if (prefix !== "+") chunk.oldLines.push(value);
        if (prefix !== "-") chunk.newLines.push(value);
        return value;
      }
      default:
        throw new Error(`unknown terminal ${name}`);
    }
  };

  const emit = (node: Node): void => {
    switch (node.t) {
      case "lit":
        if (stack[stack.length - 1] === "HunkLine") prefix = node.text;
        if (node.text === "*** End of File") lastChunk().isEndOfFile = true;
        out += node.text;
        return;
      case "ref": {
        const rule = RULES.get(node.name);
        if (rule === undefined) {
          out += terminal(node.name);
          return;
        }
        if (node.name === "AddFile") hunks.push({ kind: "add", path: "", contents: "" });
        if (node.name === "DeleteFile") hunks.push({ kind: "delete", path: "" });
        if (node.name === "UpdateFile") hunks.push({ kind: "update", path: "", movePath: undefined, chunks: [] });
        if (node.name === "Hunk") {
          const hunk = current();
          if (hunk.kind === "update") hunk.chunks.push({ changeContext: undefined, oldLines: [], newLines: [], isEndOfFile: false });
        }
        stack.push(node.name);
        emit(rule);
        stack.pop();
        return;
      }
      case "alt":
        for (const item of pick(node.options)) emit(item);
        return;
      case "opt":
        if (next() < 0.5) emit(node.body);
        return;
      case "rep": {
        // The parser needs at least one hunk per Update File and one line per hunk (pinned below).
        const owner = stack[stack.length - 1];
        const min = owner === "UpdateFile" || owner === "Hunk" ? 1 : 0;
        const count = min + Math.floor(next() * 4);
        for (let i = 0; i < count; i += 1) emit(node.body);
        return;
      }
    }
  };
  emit({ t: "ref", name: "Patch" });
  return { patch: out, hunks };
}

function errorOf(fn: () => unknown): ToolError {
  try {
    fn();
  } catch (error) {
    if (ToolError.is(error)) return error;
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("grammar", () => {
  test("the grammar is the block the description shows", () => {
    expect(APPLY_PATCH_DESCRIPTION).toContain(`The full grammar definition is below:\n${PATCH_GRAMMAR}\n\nA full patch`);
    expect(PATCH_GRAMMAR_LINES).toHaveLength(10);
    expect([...RULES.keys()]).toEqual(["Patch", "Begin", "End", "FileOp", "AddFile", "DeleteFile", "UpdateFile", "MoveTo", "Hunk", "HunkLine"]);
  });

  test("every sentence of the grammar parses into the operations it spells", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const { patch, hunks } = generate(seed);
        expect(parsePatch(patch).hunks).toEqual(hunks);
      }),
      { numRuns: 500 },
    );
  });

  test("the generator reaches every construct", () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 300; seed += 1) {
      for (const hunk of generate(seed).hunks) {
        seen.add(hunk.kind);
        if (hunk.kind === "update") {
          if (hunk.movePath !== undefined) seen.add("move");
          for (const chunk of hunk.chunks) {
            if (chunk.isEndOfFile) seen.add("eof");
            if (chunk.changeContext !== undefined) seen.add("header");
          }
        }
      }
    }
    expect([...seen].sort()).toEqual(["add", "delete", "eof", "header", "move", "update"]);
  });
});

describe("where the parser is stricter than the grammar text", () => {
  test("an Update File needs at least one hunk", () => {
    expect(errorOf(() => parsePatch("*** Begin Patch\n*** Update File: a\n*** End Patch\n")).message).toBe(
      "Invalid patch hunk on line 2: Update file hunk for path 'a' is empty",
    );
  });

  test("a hunk needs at least one line", () => {
    expect(errorOf(() => parsePatch("*** Begin Patch\n*** Update File: a\n@@\n*** End Patch\n")).message).toBe(
      "Invalid patch hunk on line 4: Update hunk does not contain any lines",
    );
    expect(errorOf(() => parsePatch("*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch\n")).code).toBe(ErrorCode.INVALID_INPUT);
  });

  // The reference reports these one line after the chunk's first line, even when that line is the culprit.
  test("a header is separated from @@ by a space", () => {
    expect(errorOf(() => parsePatch("*** Begin Patch\n*** Update File: a\n@@x\n+y\n*** End Patch\n")).message).toBe(
      "Invalid patch hunk on line 4: Unexpected line found in update hunk: '@@x'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
    );
  });
});
