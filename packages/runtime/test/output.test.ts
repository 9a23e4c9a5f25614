/**
 * Output shaping (spec §8, decision D6): truncation settings, head/tail helpers, metadata,
 * field filtering and CONCISE, advertised output schema/fields/formats, output validation,
 * and stream chunking.
 */
import {
  DEFAULT_STREAM_CHUNK_SIZE_BYTES,
  TruncationSettings,
  assertToolOutput,
  describedOutputLimit,
  resolveOutputLimit,
  chunkUtf8,
  describeTool,
  validateStreamChunkSize,
  validateToolOutput,
  Session,
  ToolRegistry,
  shapeOutput,
} from "../src/host.js";
import { ErrorCode, Type, defineNamespace, defineTool } from "../src/index.js";
import { TRUNCATION_MARKER, estimateTokens, truncateHeadTail, truncateUtf8 } from "../src/helpers.js";
import { counterTool, makeSession, readTool, tempDirs } from "./fixtures.js";

describe("truncation settings (§8.4)", () => {
  it("resolves per-tool key > session default > built-in", () => {
    const none = new TruncationSettings();
    expect(none.maxOutputBytesFor("run_terminal_cmd", 20_000)).toBe(20_000);
    expect(none.maxOutputBytesFor("grep")).toBe(40_000);
    expect(none.maxLinesRead).toBe(1000);
    const some = new TruncationSettings({ defaultMaxOutputBytes: 5000, perToolMaxOutputBytes: { run_terminal_cmd: 100 }, maxLinesRead: 10 });
    expect(some.maxOutputBytesFor("run_terminal_cmd", 20_000)).toBe(100);
    expect(some.maxOutputBytesFor("get_command_or_subagent_output", 40_000)).toBe(5000);
    expect(some.maxOutputBytesFor("constructor", 40_000)).toBe(5000);
    expect(some.maxLinesRead).toBe(10);
  });

  it("resolves a declared spec: per-tool key > session default > params > built-in, and describes the same number", () => {
    const spec = { key: "run_terminal_cmd", builtin: 20_000, fromParams: (p: { limit: number | null }) => p.limit, describedBuiltin: 40_000 };
    const none = new TruncationSettings();
    expect(none.resolve(spec, { limit: null })).toEqual({ limit: 20_000, source: "builtin" });
    expect(describedOutputLimit(none, spec, { limit: null })).toBe(40_000);
    expect(none.resolve(spec, { limit: 700 })).toEqual({ limit: 700, source: "params" });
    expect(describedOutputLimit(none, spec, { limit: 700 })).toBe(700);
    const session = new TruncationSettings({ defaultMaxOutputBytes: 5000 });
    expect(session.resolve(spec, { limit: 700 })).toEqual({ limit: 5000, source: "default" });
    const perTool = new TruncationSettings({ defaultMaxOutputBytes: 5000, perToolMaxOutputBytes: { run_terminal_cmd: 300, run_terminal_command: 1 } });
    expect(resolveOutputLimit(perTool, spec, { limit: 700 })).toEqual({ limit: 300, source: "per_tool" });
    expect(describedOutputLimit(perTool, spec, { limit: 700 })).toBe(300);
    // Keys are own properties only: an inherited name is no key.
    expect(new TruncationSettings({}).resolve({ key: "constructor", builtin: 9 }, undefined)).toEqual({ limit: 9, source: "builtin" });
  });

  it("lets a spec ignore the truncation config (grep, list_dir) and pick its built-in by behaviour version", () => {
    const spec = {
      key: "list_dir",
      builtin: 10_000,
      builtinByVersion: { "legacy-0.4.10": 40_000 },
      fromParams: (p: { max: number | null }) => p.max,
      truncationConfig: "ignored" as const,
    };
    const configured = new TruncationSettings({ defaultMaxOutputBytes: 5, perToolMaxOutputBytes: { list_dir: 7 } });
    expect(configured.resolve(spec, { max: null })).toEqual({ limit: 10_000, source: "builtin" });
    expect(configured.resolve(spec, { max: null }, "current")).toEqual({ limit: 10_000, source: "builtin" });
    expect(resolveOutputLimit(configured, spec, { max: null }, "legacy-0.4.10")).toEqual({ limit: 40_000, source: "builtin" });
    expect(describedOutputLimit(configured, spec, { max: 120 }, "legacy-0.4.10")).toBe(120);
    // Version names are own keys only.
    expect(configured.resolve(spec, { max: null }, "constructor")).toEqual({ limit: 10_000, source: "builtin" });
  });

  it("gives a call the limit its description states, keyed by the canonical name whatever the rename (issue 12.5)", async () => {
    const limited = defineTool({
      id: "limited",
      kind: "other",
      description: "Output is cut at {max_output_bytes} bytes.",
      input: Type.Object({}),
      output: Type.Object({ type: Type.Literal("Limit"), limit: Type.Integer() }),
      truncation: { key: "limited", builtin: 1234 },
      async execute(_input, ctx) {
        return { output: { type: "Limit" as const, limit: ctx.outputLimit }, promptText: String(ctx.outputLimit) };
      },
    });
    const dirs = await tempDirs();
    try {
      const registry = ToolRegistry.of([defineNamespace({ name: "Limits", apiVersion: 1, tools: [limited] })]);
      const cases: [Record<string, number> | undefined, number][] = [
        [undefined, 1234],
        [{ limited: 77 }, 77],
        [{ renamed: 5 }, 1234],
      ];
      for (const [perTool, expected] of cases) {
        const session = new Session({ registry, workspace: dirs.workspace, stateDir: dirs.stateDir });
        const out = await session.finalize({
          tools: [{ id: "Limits:limited", nameOverride: "renamed" }],
          ...(perTool ? { truncation: { perToolMaxOutputBytes: perTool } } : {}),
        });
        if (!out.ok) throw new Error(out.message);
        expect(out.tools[0]!.description).toBe(`Output is cut at ${expected} bytes.`);
        const call = await session.execute({ toolName: "renamed", inputJson: "{}" });
        expect(call.ok && call.promptText).toBe(String(expected));
        await session.close();
      }
    } finally {
      await dirs.cleanup();
    }
  });

  it("keeps head and tail by code points, never splitting a character", () => {
    expect(truncateHeadTail("abcdef", 6)).toEqual({ text: "abcdef", truncated: false, shownChars: 6, totalChars: 6 });
    expect(truncateHeadTail("ab😀cdef😀gh", 4)).toEqual({ text: `ab${TRUNCATION_MARKER}gh`, truncated: true, shownChars: 4, totalChars: 10 });
    expect(truncateUtf8("aé😀", 4)).toEqual({ text: "aé", truncated: true });
    expect(truncateUtf8("aé", 3)).toEqual({ text: "aé", truncated: false });
  });
});

describe("execution metadata and shaping", () => {
  let dirs: Awaited<ReturnType<typeof tempDirs>>;
  let session: Session;
  beforeEach(async () => {
    dirs = await tempDirs();
    session = makeSession(dirs, { runtimeVersion: "9.9.9" });
    const out = await session.finalize({ tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:counter" }] });
    if (!out.ok) throw new Error(out.message);
  });
  afterEach(async () => {
    await session.close();
    await dirs.cleanup();
  });

  it("fills metadata: duration, token estimate, truncation flag, versions", async () => {
    const r = await session.execute({ toolName: "read_file", inputJson: '{"target_file":"big"}', callId: "c1" });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.callId).toBe("c1");
    expect(r.metadata).toEqual({
      durationMs: expect.any(Number),
      estimatedTokens: estimateTokens(r.promptText),
      truncated: true,
      toolVersion: "9.9.9",
      contractVersion: "current",
    });
    expect(estimateTokens("abcdefg")).toBe(1);
    expect(estimateTokens("😀😀")).toBe(2);
    const small = await session.execute({ toolName: "read_file", inputJson: '{"target_file":"a"}' });
    expect(small.metadata.truncated).toBe(false);
    expect(small.callId).not.toBe("");
  });

  it("filters top-level output fields, always keeping type", async () => {
    const include = await session.execute({ toolName: "read_file", inputJson: '{"target_file":"a"}', includeFields: ["content", "nope"] });
    expect(include.ok && JSON.parse(include.outputJson)).toEqual({ type: "ReadFile", content: "content of a" });
    const exclude = await session.execute({ toolName: "read_file", inputJson: '{"target_file":"a"}', excludeFields: ["content", "type"] });
    expect(exclude.ok && JSON.parse(exclude.outputJson)).toEqual({ type: "ReadFile", raw: "RAW" });
    const both = await session.execute({ toolName: "read_file", inputJson: '{"target_file":"a"}', includeFields: ["content", "raw"], excludeFields: ["raw"] });
    expect(both.ok && JSON.parse(both.outputJson)).toEqual({ type: "ReadFile", content: "content of a" });
    expect(both.ok && both.promptText).toBe("read a offset=1 (offset)");
  });

  it("passes an output through unshaped when the shape drops nothing, and copies it when it does", () => {
    const output = { type: "ReadFile", content: "c", raw: "r" };
    expect(shapeOutput(output, { includeFields: [], excludeFields: [], concise: false, potentiallyLarge: new Set(["raw"]) })).toBe(output);
    expect(shapeOutput(output, { concise: true, potentiallyLarge: new Set() })).toBe(output);
    const shaped = shapeOutput(output, { concise: true, potentiallyLarge: new Set(["raw"]) });
    expect(shaped).toEqual({ type: "ReadFile", content: "c" });
    expect(output).toEqual({ type: "ReadFile", content: "c", raw: "r" });
  });

  it("uses the concise prompt and drops potentially large fields in CONCISE", async () => {
    const r = await session.execute({ toolName: "read_file", inputJson: '{"target_file":"a"}', outputFormat: "concise" });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.promptText).toBe("read a");
    expect(JSON.parse(r.outputJson)).toEqual({ type: "ReadFile", content: "content of a" });
    const counter = await session.execute({ toolName: "counter", inputJson: "{}", outputFormat: "concise" });
    expect(counter.ok && counter.promptText).toBe("count 1");
  });

  it("rejects outputs that do not match the schema in validation mode", async () => {
    const r = await session.execute({ toolName: "counter", inputJson: '{"bad":true}' });
    if (r.ok) throw new Error("expected failure");
    expect(r.error.code).toBe(ErrorCode.INTERNAL);
    expect(r.error.message).toContain("does not match its output schema: /text");
  });

  it("advertises the output schema, formats and fields", () => {
    const info = describeTool(session, "read_file")!;
    expect(JSON.parse(info.outputSchemaJson)).toMatchObject({ type: "object", properties: { type: { const: "ReadFile" } } });
    expect(info.outputFields).toEqual([
      { name: "type", description: "", jsonType: "string", includedIn: ["default", "concise"], potentiallyLarge: false },
      { name: "content", description: "", jsonType: "string", includedIn: ["default", "concise"], potentiallyLarge: false },
      { name: "raw", description: "Raw bytes as text", jsonType: "string", includedIn: ["default"], potentiallyLarge: true },
    ]);
    expect(info.outputFormats.map((f) => [f.format, f.defaultFields])).toEqual([
      ["default", ["type", "content", "raw"]],
      ["concise", ["type", "content"]],
    ]);
  });
});

describe("output fields of union outputs", () => {
  it("lists the fields of every variant once, with their types", async () => {
    const union = defineTool({
      id: "union",
      kind: "other",
      description: "u",
      input: Type.Object({}),
      output: Type.Union([
        Type.Object({ type: Type.Literal("A"), count: Type.Integer({ description: "How many." }) }),
        Type.Object({ type: Type.Literal("B"), items: Type.Array(Type.String()), note: Type.Optional(Type.Union([Type.String(), Type.Null()])) }),
      ]),
      async execute() {
        return { output: { type: "A" as const, count: 1 }, promptText: "" };
      },
    });
    const dirs = await tempDirs();
    const s = new Session({
      registry: ToolRegistry.of([defineNamespace({ name: "U", apiVersion: 1, tools: [union] })]),
      workspace: dirs.workspace,
      stateDir: dirs.stateDir,
      validateOutputs: true,
    });
    await s.finalize({ tools: [{ id: "U:union" }] });
    const info = describeTool(s, "union")!;
    expect(info.outputFields.map((f) => [f.name, f.jsonType, f.description])).toEqual([
      ["type", "string", ""],
      ["count", "number", "How many."],
      ["items", "array", ""],
      ["note", "string", ""],
    ]);
    expect(validateToolOutput(union, { type: "B", items: ["x"], note: null })).toEqual([]);
    expect((await s.execute({ toolName: "union", inputJson: "{}" })).ok).toBe(true);
    await s.close();
    await dirs.cleanup();
  });
});

describe("validateToolOutput", () => {
  it("accepts matching outputs and lists the problems of others", () => {
    expect(validateToolOutput(readTool, { type: "ReadFile", content: "x" })).toEqual([]);
    expect(validateToolOutput(readTool, { type: "Other", content: 1 }).map((p) => p.path)).toEqual(expect.arrayContaining(["/type", "/content"]));
    expect(() => assertToolOutput(counterTool, { type: "Text" })).toThrow(/output of counter does not match its schema/);
  });
});

describe("stream chunks (D6)", () => {
  it("validates the chunk size", () => {
    expect(validateStreamChunkSize(undefined)).toEqual({ ok: true, size: DEFAULT_STREAM_CHUNK_SIZE_BYTES });
    expect(validateStreamChunkSize(0)).toEqual({ ok: true, size: 1_048_576 });
    expect(validateStreamChunkSize(4_194_304)).toEqual({ ok: true, size: 4_194_304 });
    expect(validateStreamChunkSize(2)).toEqual({ ok: true, size: 4 });
    expect(validateStreamChunkSize(4_194_305)).toEqual({ ok: false, message: "stream_chunk_size 4194305 exceeds the maximum of 4194304 bytes (4 MiB)" });
  });

  it("splits on code point boundaries with exact offsets", () => {
    const text = "aé😀b€".repeat(50);
    const whole = Buffer.from(text, "utf8");
    for (const size of [4, 5, 6, 7, 64, 10_000]) {
      const chunks = chunkUtf8(text, size);
      let offset = 0;
      for (const chunk of chunks) {
        expect(chunk.offset).toBe(offset);
        expect(chunk.data.length).toBeLessThanOrEqual(size);
        expect(chunk.data.length).toBeGreaterThan(0);
        expect(Buffer.from(chunk.data).toString("utf8")).not.toContain("\uFFFD");
        offset += chunk.data.length;
      }
      expect(offset).toBe(whole.length);
      expect(Buffer.concat(chunks.map((c) => c.data)).equals(whole)).toBe(true);
    }
    expect(chunkUtf8("", 10)).toEqual([]);
  });
});
