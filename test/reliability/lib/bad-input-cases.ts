/**
 * The bad-input table (shared/research/reliability.md §4): malformed requests with the ToolError
 * code or gRPC status each must get. Built from a few families crossed with the tools they apply
 * to, so that every tool sees every structural defect of its input.
 */
import { ErrorCode } from "@grok-tools/proto";
import { status as GrpcStatus } from "@grpc/grpc-js";
import type { WireOptions, WireString } from "./wire.js";

/** What a case must get: a ToolError code, success (`"ok"`), or a gRPC status on the call. */
export type Expected = ErrorCode | "ok" | { grpc: GrpcStatus };

export interface BadInputCase {
  name: string;
  tool: WireString;
  input: WireString;
  options?: WireOptions;
  callId?: WireString;
  expect: Expected;
  /** Also through ExecuteToolStream (the same outcome, as a final chunk or status). */
  stream?: boolean;
  /** What the stream must end with, when it differs from `expect`. */
  streamExpect?: "stream" | { grpc: GrpcStatus };
}

const E = ErrorCode;
const U64_MAX = "18446744073709551615";
const I64_MAX = "9223372036854775807";
const U32_MAX = "4294967295";

/** Each tool with a valid input and the name of its main string field (for type and path cases). */
/**
 * `valid` answers `validExpect` (inputs chosen to change nothing on disk): unknown keys pass
 * through as in the reference (spec §2.7), so an extra key must give the same answer.
 */
const TOOLS: { tool: string; valid: Record<string, unknown>; validExpect: Expected; stringField: string; pathField?: string; dir?: boolean }[] = [
  { tool: "read_file", valid: { target_file: "a.txt" }, validExpect: "ok", stringField: "target_file", pathField: "target_file" },
  { tool: "codex_read_file", valid: { file_path: "WS/a.txt" }, validExpect: "ok", stringField: "file_path", pathField: "file_path" },
  { tool: "list_dir", valid: { target_directory: "." }, validExpect: "ok", stringField: "target_directory", pathField: "target_directory", dir: true },
  { tool: "codex_list_dir", valid: { dir_path: "WS" }, validExpect: "ok", stringField: "dir_path", pathField: "dir_path", dir: true },
  { tool: "grep", valid: { pattern: "needle" }, validExpect: "ok", stringField: "pattern" },
  { tool: "grep_files", valid: { pattern: "needle" }, validExpect: "ok", stringField: "pattern" },
  {
    tool: "search_replace",
    valid: { file_path: "a.txt", old_string: "zzz-absent", new_string: "x" },
    validExpect: ErrorCode.ERROR_CODE_NO_MATCHES,
    stringField: "file_path",
    pathField: "file_path",
  },
  { tool: "run_terminal_cmd", valid: { command: "true", description: "t" }, validExpect: "ok", stringField: "command" },
  { tool: "todo_write", valid: { todos: [{ id: "1", content: "x", status: "pending" }] }, validExpect: "ok", stringField: "todos" },
  { tool: "apply_patch", valid: { patch: "*** Begin Patch\n*** End Patch" }, validExpect: ErrorCode.ERROR_CODE_INVALID_INPUT, stringField: "patch" },
  { tool: "web_fetch", valid: { url: "http://127.0.0.1:1/" }, validExpect: ErrorCode.ERROR_CODE_PERMISSION_DENIED, stringField: "url" },
];

/** `ws` is the workspace's absolute path (Codex tools take absolute paths). */
export function badInputCases(ws: string, outside: string): BadInputCase[] {
  const cases: BadInputCase[] = [];
  const add = (c: BadInputCase) => cases.push(c);
  const json = (value: unknown) => JSON.stringify(value).replaceAll("WS", ws);

  // 1. Structurally broken input_json, for every tool.
  const broken: [string, WireString][] = [
    ["unterminated object", '{"x": "a.txt"'],
    ["array", "[]"],
    ["string", '"str"'],
    ["number", "42"],
    ["null", "null"],
    ["empty (read as {})", ""],
    ["whitespace only (read as {})", " \n\t "],
    ["trailing garbage", "{} x"],
    ["single quotes", "{'a': 1}"],
    ["100k-deep arrays beside the fields", `{"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`],
    ["invalid UTF-8 bytes", Buffer.from([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ];
  for (const { tool } of TOOLS) {
    for (const [what, input] of broken) {
      const invalidUtf8 = what === "invalid UTF-8 bytes";
      // An empty input and an unknown deep field leave the required fields missing.
      const expect = invalidUtf8
        ? { grpc: GrpcStatus.INVALID_ARGUMENT }
        : /\(read as|beside the fields/.test(what)
          ? E.ERROR_CODE_MISSING_REQUIRED_FIELD
          : E.ERROR_CODE_INVALID_INPUT;
      add({ name: `${tool}: input_json ${what}`, tool, input, expect, stream: tool === "read_file" });
    }
  }

  // 2. Wrong types, unknown and prototype keys, NUL and lone surrogates in the main string field.
  for (const { tool, valid, validExpect, stringField } of TOOLS) {
    for (const [what, value] of [
      ["a number", 123],
      ["an array", ["a"]],
      ["an object", { x: 1 }],
      ["true", true],
    ] as const) {
      add({ name: `${tool}: ${stringField} is ${what}`, tool, input: json({ ...valid, [stringField]: value }), expect: E.ERROR_CODE_INVALID_INPUT });
    }
    if (stringField !== "todos") {
      add({ name: `${tool}: NUL in ${stringField}`, tool, input: json({ ...valid, [stringField]: `a\u0000b` }), expect: E.ERROR_CODE_INVALID_INPUT });
      add({
        name: `${tool}: lone surrogate in ${stringField}`,
        tool,
        input: json({ ...valid, [stringField]: "LONE" }).replace('"LONE"', '"a\\ud800b"'),
        expect: E.ERROR_CODE_INVALID_INPUT,
      });
    }
    add({
      name: `${tool}: ${stringField} nested 100k deep`,
      tool,
      input: json({ ...valid, [stringField]: "DEEP" }).replace('"DEEP"', `${"[".repeat(100_000)}${"]".repeat(100_000)}`),
      expect: E.ERROR_CODE_INVALID_INPUT,
    });
    add({ name: `${tool}: unknown extra field`, tool, input: json({ ...valid, pathh: "b" }), expect: validExpect });
    add({ name: `${tool}: __proto__ key`, tool, input: json(valid).replace(/^\{/, '{"__proto__":{"polluted":1},'), expect: validExpect });
    add({
      name: `${tool}: constructor.prototype key`,
      tool,
      input: json(valid).replace(/^\{/, '{"constructor":{"prototype":{"polluted":1}},'),
      expect: validExpect,
    });
    add({ name: `${tool}: missing required field`, tool, input: "{}", expect: E.ERROR_CODE_MISSING_REQUIRED_FIELD });
  }

  // 3. Paths: forms never expanded, escapes, and names that only look alike.
  const pathForms: [string, string, ErrorCode][] = [
    // GrokBuild tools expand `~` (spec §4.0), so it is outside, refused whether or not the file exists
    // (issue #19); Codex tools take `~` as a plain name inside the workspace (see below).
    ["~ home", "~/.ssh/id_rsa", E.ERROR_CODE_PERMISSION_DENIED],
    ["dot-dot escape", "../outside/secret.txt", E.ERROR_CODE_PERMISSION_DENIED],
    ["deep dot-dot to /etc/passwd", `${"../".repeat(40)}etc/passwd`, E.ERROR_CODE_PERMISSION_DENIED],
    ["absolute outside", "/etc/passwd", E.ERROR_CODE_PERMISSION_DENIED],
    ["sibling outside", `${outside}/secret.txt`, E.ERROR_CODE_PERMISSION_DENIED],
    ["sibling-prefix root", `${ws}_evil/x.txt`, E.ERROR_CODE_PERMISSION_DENIED],
    ["in-and-out", `${ws}/../outside/secret.txt`, E.ERROR_CODE_PERMISSION_DENIED],
    ["symlink out", "out-link/secret.txt", E.ERROR_CODE_PERMISSION_DENIED],
    ["dot-dot after a link", "out-link/../outside/secret.txt", E.ERROR_CODE_PERMISSION_DENIED],
    ["Windows drive", "C:\\Windows\\win.ini", E.ERROR_CODE_FILE_NOT_FOUND],
    ["UNC", "\\\\srv\\share\\x", E.ERROR_CODE_FILE_NOT_FOUND],
    ["file URL", "file:///etc/passwd", E.ERROR_CODE_FILE_NOT_FOUND],
    ["RTL override", "a\u202etxt.txt", E.ERROR_CODE_FILE_NOT_FOUND],
    ["zero-width", "a\u200b.txt", E.ERROR_CODE_FILE_NOT_FOUND],
    ["NFD of an NFC name", "caf\u0065\u0301.txt", E.ERROR_CODE_FILE_NOT_FOUND],
    ["percent-encoded dot-dot", "%2e%2e/outside/secret.txt", E.ERROR_CODE_FILE_NOT_FOUND],
  ];
  for (const { tool, valid, pathField, dir } of TOOLS) {
    if (!pathField) continue;
    for (const [what, form, code] of pathForms) {
      // List tools get the folder; a file there is "not a directory" before it is outside.
      const p = dir
        ? form
            .replace(/\/secret\.txt$/, "")
            .replace(/\/x\.txt$/, "")
            .replace(/^\/etc\/passwd$/, "/etc")
            .replace(/etc\/passwd$/, "etc")
        : form;
      const absolute = tool.startsWith("codex_") && !p.startsWith("/") ? `${ws}/${p}` : p;
      const expected = what === "~ home" && tool.startsWith("codex_") ? E.ERROR_CODE_FILE_NOT_FOUND : code;
      add({ name: `${tool}: path ${what}`, tool, input: json({ ...valid, [pathField]: absolute }), expect: expected });
    }
    const tooLong =
      tool === "read_file" || tool === "codex_read_file" || tool === "codex_list_dir" ? E.ERROR_CODE_EXECUTION_FAILED : E.ERROR_CODE_INVALID_INPUT;
    add({
      name: `${tool}: path 300-byte component`,
      tool,
      input: json({ ...valid, [pathField]: tool.startsWith("codex_") ? `${ws}/${"x".repeat(300)}` : "x".repeat(300) }),
      expect: tooLong,
    });
    add({
      name: `${tool}: path 5000 x a/`,
      tool,
      input: json({ ...valid, [pathField]: tool.startsWith("codex_") ? `${ws}/${"a/".repeat(5000)}` : "a/".repeat(5000) }),
      expect: tooLong,
    });
    add({
      name: `${tool}: path NFC name found`,
      tool,
      input: json({ ...valid, [pathField]: tool.startsWith("codex_") ? `${ws}/caf\u00e9.txt` : "caf\u00e9.txt" }),
      expect: dir ? E.ERROR_CODE_INVALID_INPUT : tool === "search_replace" ? E.ERROR_CODE_NO_MATCHES : "ok",
    });
  }

  // 4. Tool names.
  // Spec §4.0: any name that is not a finalized client name is "Tool not found" (TOOL_NOT_FOUND).
  add({ name: "tool name empty", tool: "", input: "{}", expect: E.ERROR_CODE_TOOL_NOT_FOUND });
  add({ name: "tool name 10 KB", tool: "r".repeat(10_240), input: "{}", expect: E.ERROR_CODE_TOOL_NOT_FOUND });
  add({ name: "tool name with NUL", tool: "read\u0000file", input: "{}", expect: E.ERROR_CODE_TOOL_NOT_FOUND });
  add({ name: "tool name with newline", tool: "read_file\n", input: "{}", expect: E.ERROR_CODE_TOOL_NOT_FOUND });
  add({ name: "tool name fully qualified", tool: "GrokBuild:read_file", input: "{}", expect: E.ERROR_CODE_TOOL_NOT_FOUND });
  add({ name: "tool name invalid UTF-8", tool: Buffer.from([0x72, 0xff, 0x66]), input: "{}", expect: { grpc: GrpcStatus.INVALID_ARGUMENT } });
  add({ name: "tool name unknown", tool: "nope", input: "{}", expect: E.ERROR_CODE_TOOL_NOT_FOUND, stream: true });
  add({ name: "tool name registered, not finalized", tool: "ask_user_question", input: "{}", expect: E.ERROR_CODE_TOOL_NOT_FOUND });
  add({ name: "tool name with trailing space", tool: "read_file ", input: json({ target_file: "a.txt" }), expect: E.ERROR_CODE_TOOL_NOT_FOUND });

  // 5. Edits and numbers in tool input.
  add({
    name: "search_replace: old_string absent",
    tool: "search_replace",
    input: json({ file_path: "a.txt", old_string: "zzz-absent", new_string: "x" }),
    expect: E.ERROR_CODE_NO_MATCHES,
  });
  add({
    name: "search_replace: old == new",
    tool: "search_replace",
    input: json({ file_path: "a.txt", old_string: "alpha", new_string: "alpha" }),
    expect: E.ERROR_CODE_INVALID_INPUT,
  });
  add({
    name: "search_replace: multiple matches",
    tool: "search_replace",
    input: json({ file_path: "a.txt", old_string: "e", new_string: "E" }),
    expect: E.ERROR_CODE_MULTIPLE_MATCHES,
  });
  add({
    name: "search_replace: target is a directory",
    tool: "search_replace",
    input: json({ file_path: "sub", old_string: "a", new_string: "b" }),
    expect: E.ERROR_CODE_INVALID_INPUT,
  });
  add({
    name: "search_replace: target is a FIFO",
    tool: "search_replace",
    input: json({ file_path: "fifo", old_string: "a", new_string: "b" }),
    expect: E.ERROR_CODE_INVALID_INPUT,
  });
  add({ name: "read_file: target is a FIFO", tool: "read_file", input: json({ target_file: "fifo" }), expect: E.ERROR_CODE_INVALID_INPUT });
  add({ name: "read_file: target is a directory", tool: "read_file", input: json({ target_file: "sub" }), expect: E.ERROR_CODE_INVALID_INPUT });
  // Numbers: the reference reads them leniently (a numeric string, a negative offset counting from
  // the end, a huge value clamped); what it cannot read is INVALID_INPUT. Never a crash or a hang.
  const numbers: [string, string][] = [
    ["string", '"10"'],
    ["negative", "-1"],
    ["1e400", "1e400"],
    ["fraction", "2.5"],
    ["2^64-1", U64_MAX],
    ["-2^63", "-9223372036854775808"],
  ];
  const lenient: Record<string, string[]> = {
    "read_file offset": ["string", "negative", "2^64-1", "-2^63"],
    "read_file limit": ["2^64-1"],
    "codex_list_dir depth": ["2^64-1"],
    "grep head_limit": ["string", "2^64-1"],
    "run_terminal_cmd timeout": ["string", "2^64-1"],
  };
  const numberInputs: [string, string, (v: string) => string][] = [
    ["read_file", "offset", (v) => `{"target_file":"a.txt","offset":${v}}`],
    ["read_file", "limit", (v) => `{"target_file":"a.txt","limit":${v}}`],
    ["codex_list_dir", "depth", (v) => `{"dir_path":${JSON.stringify(ws)},"depth":${v}}`],
    ["grep", "head_limit", (v) => `{"pattern":"needle","head_limit":${v}}`],
    ["run_terminal_cmd", "timeout", (v) => `{"command":"true","description":"t","timeout":${v}}`],
  ];
  for (const [tool, field, input] of numberInputs) {
    for (const [what, value] of numbers) {
      add({
        name: `${tool}: ${field} ${what}`,
        tool,
        input: input(value),
        expect: lenient[`${tool} ${field}`]!.includes(what) ? "ok" : E.ERROR_CODE_INVALID_INPUT,
      });
    }
  }
  add({ name: "grep: pattern '('", tool: "grep", input: json({ pattern: "(" }), expect: E.ERROR_CODE_INVALID_INPUT });
  add({ name: "grep: pattern --pre=./evil.sh is literal", tool: "grep", input: json({ pattern: "--pre=./evil.sh" }), expect: "ok" });
  add({ name: "grep: pattern -f/etc/passwd is literal", tool: "grep", input: json({ pattern: "-f/etc/passwd" }), expect: "ok" });
  add({ name: "grep: 30 MB pattern", tool: "grep", input: json({ pattern: "a".repeat(30 * 1024 * 1024) }), expect: E.ERROR_CODE_INVALID_INPUT });
  add({ name: "todo_write: one 3.5 MB todo", tool: "todo_write", input: json({ todos: [{ id: "x", content: "y".repeat(3_500_000) }] }), expect: "ok" });
  add({
    name: "todo_write: 10 000 todos",
    tool: "todo_write",
    input: json({ todos: Array.from({ length: 10_000 }, (_, i) => ({ id: `t${i}`, content: "c", status: "pending" })) }),
    expect: "ok",
  });
  add({
    name: "todo_write: bad status",
    tool: "todo_write",
    input: json({ todos: [{ id: "1", content: "x", status: "done-ish" }] }),
    expect: E.ERROR_CODE_INVALID_INPUT,
  });

  // 6. Abusive patches (nothing may be written by any of them).
  const patch = (body: string) => json({ patch: body });
  const patches: [string, string, ErrorCode][] = [
    ["no Begin", "*** Add File: p.txt\n+x\n*** End Patch", E.ERROR_CODE_INVALID_INPUT],
    ["no End", "*** Begin Patch\n*** Add File: p.txt\n+x", E.ERROR_CODE_INVALID_INPUT],
    ["bad header", "*** Begin Patch\n*** Frobnicate File: a.txt\n*** End Patch", E.ERROR_CODE_INVALID_INPUT],
    ["empty update hunk", "*** Begin Patch\n*** Update File: a.txt\n*** End Patch", E.ERROR_CODE_INVALID_INPUT],
    ["context mismatch", "*** Begin Patch\n*** Update File: a.txt\n@@\n-not there\n+x\n*** End Patch", E.ERROR_CODE_NO_MATCHES],
    ["delete missing file", "*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch", E.ERROR_CODE_FILE_NOT_FOUND],
    ["only both markers", "*** Begin Patch\n*** End Patch", E.ERROR_CODE_INVALID_INPUT],
    ["heredoc without inner markers", "<<EOF\n*** Add File: p.txt\n+x\nEOF", E.ERROR_CODE_INVALID_INPUT],
    ["add ../x", "*** Begin Patch\n*** Add File: ../x.txt\n+x\n*** End Patch", E.ERROR_CODE_PERMISSION_DENIED],
    ["add absolute outside", `*** Begin Patch\n*** Add File: ${outside}/new.txt\n+x\n*** End Patch`, E.ERROR_CODE_PERMISSION_DENIED],
    ["delete /etc/hosts", "*** Begin Patch\n*** Delete File: /etc/hosts\n*** End Patch", E.ERROR_CODE_PERMISSION_DENIED],
    [
      "move to outside",
      `*** Begin Patch\n*** Update File: a.txt\n*** Move to: ${outside}/moved.txt\n@@\n-alpha\n+ALPHA\n*** End Patch`,
      E.ERROR_CODE_PERMISSION_DENIED,
    ],
    [
      "last hunk fails (all-or-nothing)",
      "*** Begin Patch\n*** Add File: fresh.txt\n+x\n*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n*** Update File: sub/b.txt\n@@\n-no such line\n+y\n*** End Patch",
      E.ERROR_CODE_NO_MATCHES,
    ],
    ["NUL in file name", "*** Begin Patch\n*** Add File: a\u0000b.txt\n+x\n*** End Patch", E.ERROR_CODE_INVALID_INPUT],
    ["20000 failing hunks", `*** Begin Patch\n*** Update File: a.txt\n${"@@\n-zz\n+yy\n".repeat(20_000)}*** End Patch`, E.ERROR_CODE_NO_MATCHES],
    [
      "1 MB single line, then a failing hunk",
      `*** Begin Patch\n*** Add File: big.txt\n+${"q".repeat(1_000_000)}\n*** Update File: sub/b.txt\n@@\n-no such line\n+y\n*** End Patch`,
      E.ERROR_CODE_NO_MATCHES,
    ],
    [
      "update through a symlinked file",
      "*** Begin Patch\n*** Update File: out-link/secret.txt\n@@\n-needle outside\n+x\n*** End Patch",
      E.ERROR_CODE_PERMISSION_DENIED,
    ],
    ["delete through a symlinked folder", "*** Begin Patch\n*** Delete File: out-link/secret.txt\n*** End Patch", E.ERROR_CODE_PERMISSION_DENIED],
    ["add through a symlink folder", "*** Begin Patch\n*** Add File: out-link/new.txt\n+x\n*** End Patch", E.ERROR_CODE_PERMISSION_DENIED],
  ];
  for (const [what, body, code] of patches) add({ name: `apply_patch: ${what}`, tool: "apply_patch", input: patch(body), expect: code });

  // 7. uint64/uint32 extremes in ExecutionOptions (a command that answers at once must still answer).
  // 0 is "no timeout"; up to 2^53-1 a long timeout (never an instant one from a timer overflow);
  // above 2^53-1 the decoder cannot keep the value exactly: INVALID_ARGUMENT, saying so.
  for (const [t, expect] of [
    ["0", "ok"],
    ["2147483648", "ok"],
    ["9007199254740991", "ok"],
    ["9007199254740993", { grpc: GrpcStatus.INVALID_ARGUMENT }],
    [I64_MAX, { grpc: GrpcStatus.INVALID_ARGUMENT }],
    [U64_MAX, { grpc: GrpcStatus.INVALID_ARGUMENT }],
  ] as [string, Expected][]) {
    add({
      name: `options.timeout_ms ${t} on echo`,
      tool: "run_terminal_cmd",
      input: json({ command: "echo ok", description: "t" }),
      options: { timeoutMs: t },
      expect,
    });
    add({ name: `options.timeout_ms ${t} on read_file`, tool: "read_file", input: json({ target_file: "a.txt" }), options: { timeoutMs: t }, expect });
  }
  // ExecuteTool ignores stream_chunk_size; the stream refuses one over 4 MiB (0 means the default).
  for (const size of ["0", "4194305", U32_MAX, U64_MAX]) {
    add({
      name: `options.stream_chunk_size ${size}`,
      tool: "read_file",
      input: json({ target_file: "a.txt" }),
      options: { streamChunkSize: size },
      expect: "ok",
      stream: true,
      streamExpect: size === "0" ? "stream" : { grpc: GrpcStatus.INVALID_ARGUMENT },
    });
  }
  for (const format of [99, -1, 2147483647]) {
    add({ name: `options.output_format ${format}`, tool: "read_file", input: json({ target_file: "a.txt" }), options: { outputFormat: format }, expect: "ok" });
  }
  add({
    name: "options.working_directory outside",
    tool: "read_file",
    input: json({ target_file: "secret.txt" }),
    options: { workingDirectory: outside },
    expect: E.ERROR_CODE_PERMISSION_DENIED,
  });
  add({
    name: "options.working_directory with NUL",
    tool: "read_file",
    input: json({ target_file: "a.txt" }),
    options: { workingDirectory: "a\u0000b" },
    expect: E.ERROR_CODE_INVALID_INPUT,
  });
  add({
    name: "options.working_directory invalid UTF-8",
    tool: "read_file",
    input: json({ target_file: "a.txt" }),
    options: { workingDirectory: Buffer.from([0x2f, 0xff]) },
    expect: { grpc: GrpcStatus.INVALID_ARGUMENT },
  });
  // Field filters and call ids are data: unknown names filter nothing, an odd call id is echoed.
  add({
    name: "options.include_fields 100k entries",
    tool: "read_file",
    input: json({ target_file: "a.txt" }),
    options: { includeFields: Array.from({ length: 100_000 }, (_, i) => `f${i}`) },
    expect: "ok",
  });
  add({
    name: "options.exclude_fields of 1 MB name",
    tool: "read_file",
    input: json({ target_file: "a.txt" }),
    options: { excludeFields: ["x".repeat(1_000_000)] },
    expect: "ok",
  });
  add({
    name: "options.include_fields invalid UTF-8",
    tool: "read_file",
    input: json({ target_file: "a.txt" }),
    options: { includeFields: [Buffer.from([0xc3, 0x28])] },
    expect: { grpc: GrpcStatus.INVALID_ARGUMENT },
  });
  add({ name: "call_id 1 MB", tool: "read_file", input: json({ target_file: "a.txt" }), callId: "c".repeat(1_000_000), expect: "ok" });
  add({ name: "call_id with CR/LF", tool: "read_file", input: json({ target_file: "a.txt" }), callId: "a\r\nfake log line", expect: "ok" });
  add({
    name: "call_id invalid UTF-8",
    tool: "read_file",
    input: json({ target_file: "a.txt" }),
    callId: Buffer.from([0xed, 0xa0, 0x80]),
    expect: { grpc: GrpcStatus.INVALID_ARGUMENT },
  });
  return cases;
}
