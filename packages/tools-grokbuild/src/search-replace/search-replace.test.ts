import { chmod, mkdtemp, readFile as readText, realpath, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode, defineNamespace, type ToolNotification } from "@grok-tools/runtime";
import { Session, ToolRegistry, type ToolConfigInput } from "@grok-tools/runtime/host";
import { readFile } from "../read-file/index.js";
import { searchReplaceConcise } from "../search-replace-concise/index.js";
import { searchReplace } from "./search-replace.js";
import { confusableHint, nearestMatchHint } from "../shared/search-replace/hints.js";
import { findNormalizedMatches } from "../shared/search-replace/confusables.js";
import { buildEditDetails } from "../shared/search-replace/edit.js";
import { grokBuildBehaviour, grokBuildConciseBehaviour } from "../namespace.js";

const gb = defineNamespace({ name: "GrokBuild", apiVersion: 1, tools: [readFile, searchReplace], ...grokBuildBehaviour });
const gbc = defineNamespace({ name: "GrokBuildConcise", apiVersion: 1, tools: [searchReplaceConcise], ...grokBuildConciseBehaviour });
let dir: string;
let sessions: Session[] = [];
let notes: ToolNotification[] = [];

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "sr-")));
  notes = [];
});
afterEach(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  sessions = [];
  await rm(dir, { recursive: true, force: true });
});

async function session(tools: ToolConfigInput[] = [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:search_replace" }], preset?: string): Promise<Session> {
  const s = new Session({
    registry: ToolRegistry.of([gb, gbc]),
    workspace: dir,
    stateDir: path.join(dir, ".state"),
    onNotification: (_id, n) => notes.push(n),
  });
  const outcome = await s.finalize({ tools, ...(preset ? { behaviorPreset: preset } : {}) });
  if (!outcome.ok) throw new Error(outcome.message);
  sessions.push(s);
  return s;
}

const call = (s: Session, tool: string, input: unknown) => s.execute({ toolName: tool, inputJson: JSON.stringify(input) });
const edit = (s: Session, input: unknown) => call(s, "search_replace", input);
const read = (s: Session, file: string) => call(s, "read_file", { target_file: file });

async function errorOf(p: ReturnType<typeof edit>) {
  const r = await p;
  if (r.ok) throw new Error(`expected an error, got ${r.promptText}`);
  return r.error;
}

test("replaces one occurrence after a read, with details and both prompt texts", async () => {
  await writeFile(path.join(dir, "a.txt"), "one\ntwo\nthree\nfour\nfive\n");
  const s = await session();
  await read(s, "a.txt");
  const r = await edit(s, { file_path: "a.txt", old_string: "three", new_string: "THREE" });
  if (!r.ok) throw new Error(r.error.message);
  expect(r.promptText).toBe("The file a.txt has been updated successfully.");
  expect(JSON.parse(r.outputJson)).toEqual({
    type: "SearchReplace",
    EditsApplied: {
      old_string: "three",
      new_string: "THREE",
      tool_output_for_prompt: "The file a.txt has been updated successfully.",
      tool_output_for_prompt_concise: "The file a.txt has been updated.",
      absolute_path: path.join(dir, "a.txt"),
      edits: {
        details: [
          { old_string: "three", old_line: 3, new_string: "THREE", new_line: 3, context_before: "one\ntwo\n", context_after: "four\nfive\n", line_prefix: "" },
        ],
      },
    },
  });
  expect(await readText(path.join(dir, "a.txt"), "utf8")).toBe("one\ntwo\nTHREE\nfour\nfive\n");
  expect(notes).toEqual([
    expect.objectContaining({
      type: "FileWritten",
      absolute_path: path.join(dir, "a.txt"),
      previous_content: "one\ntwo\nthree\nfour\nfive\n",
      is_new_file: false,
    }),
  ]);
  const concise = await s.execute({
    toolName: "search_replace",
    inputJson: JSON.stringify({ file_path: "a.txt", old_string: "four", new_string: "4" }),
    outputFormat: "concise",
  });
  expect(concise.ok && concise.promptText).toBe("The file a.txt has been updated.");
});

test("D2: editing an unread file is FILE_NOT_READ; our own write needs no re-read; an outside change is FILE_EXTERNALLY_MODIFIED", async () => {
  await writeFile(path.join(dir, "a.txt"), "alpha beta\n");
  const s = await session();
  expect((await errorOf(edit(s, { file_path: "a.txt", old_string: "alpha", new_string: "x" }))).code).toBe(ErrorCode.FILE_NOT_READ);
  await read(s, "a.txt");
  expect((await edit(s, { file_path: "a.txt", old_string: "alpha", new_string: "x" })).ok).toBe(true);
  expect((await edit(s, { file_path: "a.txt", old_string: "beta", new_string: "y" })).ok).toBe(true);
  await writeFile(path.join(dir, "a.txt"), "changed elsewhere\n");
  const modified = await errorOf(edit(s, { file_path: "a.txt", old_string: "changed", new_string: "z" }));
  expect(modified.code).toBe(ErrorCode.FILE_EXTERNALLY_MODIFIED);
  // A rewrite with identical bytes (a touch, a formatter) is not a modification.
  await read(s, "a.txt");
  await writeFile(path.join(dir, "a.txt"), "changed elsewhere\n");
  expect((await edit(s, { file_path: "a.txt", old_string: "changed", new_string: "z" })).ok).toBe(true);
});

test("skip_read_before_edit lifts the read requirement and the finalize requirement", async () => {
  await writeFile(path.join(dir, "a.txt"), "alpha\n");
  const s = await session([{ id: "GrokBuild:search_replace", paramsJson: JSON.stringify({ skip_read_before_edit: true }) }]);
  expect((await edit(s, { file_path: "a.txt", old_string: "alpha", new_string: "b" })).ok).toBe(true);
  // Without a read tool the no-match text names an empty tool (spec §13.10).
  const e = await errorOf(edit(s, { file_path: "a.txt", old_string: "zzz", new_string: "b" }));
  expect(e.message).toBe(
    "The string to replace was not found in the file, use the  tool to see the correct string. The user may have changed the file since you last read it.",
  );
});

test("finalize refuses search_replace without a read tool unless skip_read_before_edit", async () => {
  const s = new Session({ registry: ToolRegistry.of([gb]), workspace: dir, stateDir: path.join(dir, ".state") });
  const outcome = await s.finalize({ tools: [{ id: "GrokBuild:search_replace" }] });
  expect(outcome.ok).toBe(false);
  expect(!outcome.ok && outcome.message).toContain("skip_read_before_edit=false requires a Read tool in the toolset so files can be read before editing");
});

test("no match: NO_MATCHES with file_path, user-edit hint and nearest-match hint", async () => {
  await writeFile(path.join(dir, "a.txt"), "fn main() {\n    let value = compute();   \n}\n");
  const s = await session();
  await read(s, "a.txt");
  const e = await errorOf(edit(s, { file_path: "a.txt", old_string: "let value = compute();  // x", new_string: "y" }));
  expect(e.code).toBe(ErrorCode.NO_MATCHES);
  expect(e.filePath).toBe(path.join(dir, "a.txt"));
  expect(e.message).toBe(
    "The string to replace was not found in the file, use the read_file tool to see the correct string. The user may have changed the file since you last read it.\n\nNearest match: line 2:     let value = compute();",
  );
});

test("multiple matches need replace_all (lenient); replace_all reports all occurrences", async () => {
  await writeFile(path.join(dir, "a.txt"), "aaa bbb aaa bbb aaa\n");
  const s = await session([{ id: "GrokBuild:read_file" }, { id: "GrokBuild:search_replace", paramsNameOverrides: { replace_all: "all" } }]);
  await read(s, "a.txt");
  const e = await errorOf(edit(s, { file_path: "a.txt", old_string: "aaa", new_string: "c" }));
  expect([e.code, e.message]).toEqual([
    ErrorCode.MULTIPLE_MATCHES,
    "The string to replace was found multiple times in the file. Use all to replace all occurrences, or include more context to only edit one occurrence.",
  ]);
  const r = await edit(s, { file_path: "a.txt", old_string: "aaa", new_string: "c", all: "true" });
  expect(r.ok && r.promptText).toBe("The file a.txt has been updated. All occurrences were successfully replaced.");
  expect(await readText(path.join(dir, "a.txt"), "utf8")).toBe("c bbb c bbb c\n");
});

test("CRLF files are matched LF-normalized and written back with CRLF; BOM and mode are kept", async () => {
  const file = path.join(dir, "w.txt");
  await writeFile(file, "\uFEFFline one\r\nline two\r\n");
  await chmod(file, 0o640);
  const s = await session();
  await read(s, "w.txt");
  const r = await edit(s, { file_path: "w.txt", old_string: "one\nline two", new_string: "1\nline 2" });
  expect(r.ok).toBe(true);
  expect(await readText(file, "utf8")).toBe("\uFEFFline 1\r\nline 2\r\n");
  expect((await stat(file)).mode & 0o777).toBe(0o640);
});

test("empty old_string creates a file (parents too), overwrites by default, and the guard refuses", async () => {
  const s = await session();
  const created = await edit(s, { file_path: "new/dir/f.txt", old_string: "", new_string: "hello\n" });
  expect(created.ok && created.promptText).toBe("The file new/dir/f.txt has been created successfully.");
  expect(await readText(path.join(dir, "new/dir/f.txt"), "utf8")).toBe("hello\n");
  expect(notes.at(-1)).toEqual(expect.objectContaining({ type: "FileWritten", is_new_file: true }));
  const over = await edit(s, { file_path: "new/dir/f.txt", old_string: "", new_string: "bye\n" });
  expect(over.ok).toBe(true);
  expect(notes.at(-1)).toEqual(expect.objectContaining({ is_new_file: false, previous_content: "hello\n" }));
  const guarded = await session([
    { id: "GrokBuild:read_file" },
    { id: "GrokBuild:search_replace", paramsJson: JSON.stringify({ empty_old_string_does_not_override: true }), paramsNameOverrides: { old_string: "old" } },
  ]);
  const e = await errorOf(edit(guarded, { file_path: "new/dir/f.txt", old: "", new_string: "x" }));
  expect([e.code, e.message]).toEqual([
    ErrorCode.FILE_ALREADY_EXISTS,
    "old is empty, which is only allowed when creating a new file or when the file is empty.",
  ]);
  const file = await errorOf(edit(s, { file_path: "new/dir/f.txt/child", old_string: "", new_string: "x" }));
  expect(file.message).toBe("Error: cannot create new/dir/f.txt/child. A component of the path already exists as a file where a directory is expected.");
});

test("input errors: same strings, directory, missing file, long name, outside the roots", async () => {
  const s = await session();
  expect((await errorOf(edit(s, { file_path: "a", old_string: "x", new_string: "x" }))).message).toBe("Old string and new string are the same");
  expect((await errorOf(edit(s, { file_path: ".", old_string: "x", new_string: "y" }))).message).toBe("File path is a directory");
  const missing = await errorOf(edit(s, { file_path: "nope.txt", old_string: "x", new_string: "y" }));
  expect([missing.code, missing.message]).toEqual([ErrorCode.FILE_NOT_FOUND, `Error: ${dir}/nope.txt does not exist.`]);
  const long = await errorOf(edit(s, { file_path: `${"a".repeat(256)}.txt`, old_string: "", new_string: "y" }));
  expect([long.code, long.message]).toEqual([
    ErrorCode.INVALID_INPUT,
    "Error: file name exceeds the 255-character limit (260 characters). Please use a shorter file name.",
  ]);
  const outside = await errorOf(edit(s, { file_path: "/etc/hostname-grok-test", old_string: "", new_string: "y" }));
  expect(outside.code).toBe(ErrorCode.PERMISSION_DENIED);
});

test("legacy-0.4.10 wording: no hints, historical texts", async () => {
  await writeFile(path.join(dir, "a.txt"), "aa aa\n");
  const s = await session(undefined, "legacy-0.4.10");
  await read(s, "a.txt");
  const none = await errorOf(edit(s, { file_path: "a.txt", old_string: "aa x", new_string: "b" }));
  expect([none.code, none.message]).toEqual([
    ErrorCode.NO_MATCHES,
    "The string to replace was not found in the file, use the read_file tool to see the correct string.",
  ]);
  const missing = await errorOf(edit(s, { file_path: "gone.txt", old_string: "x", new_string: "y" }));
  expect(missing.message).toBe("File not found: gone.txt. Please check the path and try again.");
});

test("unicode_normalized_fallback applies a confusable match; the hint explains a miss otherwise", async () => {
  await writeFile(path.join(dir, "q.txt"), "say \u201Chello\u201D now\n");
  const plain = await session();
  await read(plain, "q.txt");
  const e = await errorOf(edit(plain, { file_path: "q.txt", old_string: 'say "hello"', new_string: "x" }));
  expect(e.message).toContain(
    "\n\nThe nearest matching region contains Unicode typography characters (smart quotes, em-dashes, etc.) on lines 1 that look identical to ASCII in read_file output but differ at the byte level. Re-read the file and use a shorter old_string anchored on nearby ASCII-only context.",
  );
  const s = await session([
    { id: "GrokBuild:read_file" },
    { id: "GrokBuild:search_replace", paramsJson: JSON.stringify({ unicode_normalized_fallback: true }) },
  ]);
  await read(s, "q.txt");
  const r = await edit(s, { file_path: "q.txt", old_string: '"hello"', new_string: '"bye"' });
  expect(r.ok && JSON.parse(r.outputJson).EditsApplied.unicode_normalized).toBe(true);
  expect(await readText(path.join(dir, "q.txt"), "utf8")).toBe('say "bye" now\n');
});

test("the concise twin needs no prior read and shows the concise text", async () => {
  await writeFile(path.join(dir, "a.txt"), "hello world\n");
  const s = await session([{ id: "GrokBuildConcise:search_replace" }]);
  const r = await edit(s, { file_path: "a.txt", old_string: "hello", new_string: "goodbye" });
  if (!r.ok) throw new Error(r.error.message);
  expect(r.promptText).toBe("The file a.txt has been updated.");
  expect(JSON.parse(r.outputJson).EditsApplied.tool_output_for_prompt_concise).toBeUndefined();
});

test("50 concurrent edits of one file: each applies or fails cleanly, none is lost", async () => {
  const file = path.join(dir, "c.txt");
  const lines = Array.from({ length: 50 }, (_, i) => `line ${i}`);
  await writeFile(file, `${lines.join("\n")}\n`);
  const s = await session();
  await read(s, "c.txt");
  const results = await Promise.all(lines.map((line, i) => edit(s, { file_path: "c.txt", old_string: `${line}\n`, new_string: `edited ${i}\n` })));
  expect(results.every((r) => r.ok)).toBe(true);
  expect(await readText(file, "utf8")).toBe(lines.map((_, i) => `edited ${i}\n`).join(""));
  // Contended edits of the same text: exactly one applies, the others fail with NO_MATCHES.
  const same = await Promise.all(Array.from({ length: 50 }, () => edit(s, { file_path: "c.txt", old_string: "edited 7\n", new_string: "seven\n" })));
  expect(same.filter((r) => r.ok)).toHaveLength(1);
  expect(same.filter((r) => !r.ok && r.error.code === ErrorCode.NO_MATCHES)).toHaveLength(49);
});

test("pure helpers: nearest-match ties, 200-byte cap, ambiguity, edit context", () => {
  expect(nearestMatchHint("xx\nbar\nfoo\n", "foo bar")).toBe("\n\nNearest match: line 2: bar");
  expect(nearestMatchHint("x\n", "foo bar")).toBe("");
  const long = nearestMatchHint(`${"é".repeat(300)}\n`, "é");
  expect(Buffer.byteLength(long)).toBeLessThanOrEqual(200);
  expect(long.endsWith("…")).toBe(true);
  expect(findNormalizedMatches("\u2014", "-")).toEqual({ kind: "ambiguous" });
  expect(findNormalizedMatches("a\u2014b", "--")).toEqual({ kind: "matches", matches: [{ start: 1, length: 1 }] });
  expect(confusableHint("plain", "x", { readTool: "r", oldStringParam: "o", executeTool: "e" })).toBe("");
  expect(confusableHint("a \u201Cq\u201D\n", '"q"', { readTool: "", oldStringParam: "", executeTool: "bash" }, ["`python3`", "`sed`"])).toBe(
    "\n\nThe nearest matching region contains Unicode typography characters (smart quotes, em-dashes, etc.) on lines 1 that look identical to ASCII but differ at the byte level. Re-read the file and use a shorter old_string anchored on nearby ASCII-only context, or use bash with a short script (e.g. `python3` or `sed`) to edit the file directly.",
  );
  const text = "a\nb\nNEW\nc\n";
  expect(buildEditDetails(text, "old", "NEW", [4])).toEqual([
    { old_string: "old", old_line: 3, new_string: "NEW", new_line: 3, context_before: "a\nb\n", context_after: "c\n", line_prefix: "" },
  ]);
});
