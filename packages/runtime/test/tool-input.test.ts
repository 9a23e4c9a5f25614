/**
 * What ExecuteTool makes of `input_json` before a tool runs: text that is not JSON, JSON that is
 * not an object, and strings holding a lone surrogate (escaped or raw, in a key or a value, at any
 * depth) are INVALID_INPUT, and the tool does not run; a well-formed pair passes. The object a
 * tool's normalizeInput gets holds the input's top-level keys under their canonical names, without
 * `__proto__`, and is the call's own (issue #18: used without a copy when no key is renamed).
 */
import { ErrorCode, Type, defineNamespace, defineTool } from "../src/index.js";
import { ToolRegistry, type Session } from "../src/host.js";
import { makeSession, tempDirs } from "./fixtures.js";

describe("tool input parsing", () => {
  let dirs: Awaited<ReturnType<typeof tempDirs>>;
  let session: Session;
  beforeEach(async () => {
    dirs = await tempDirs();
    session = makeSession(dirs);
    const out = await session.finalize({ tools: [{ id: "GrokBuild:counter" }] });
    if (!out.ok) throw new Error(out.message);
  });
  afterEach(async () => {
    await session.close();
    await dirs.cleanup();
  });

  /** The counter's count after a call: it only moves when the tool ran. */
  async function count(): Promise<string> {
    const r = await session.execute({ toolName: "counter", inputJson: "{}" });
    if (!r.ok) throw new Error(r.error.message);
    return r.promptText;
  }

  it.each([
    ["an escaped lone high surrogate in a value", String.raw`{"note":"a\ud800b"}`],
    ["an escaped lone low surrogate in a nested array", String.raw`{"notes":[{"deep":["ok","\udc00"]}]}`],
    ["an escaped lone surrogate in a key", String.raw`{"k\ud83d":1}`],
    ["a reversed pair", String.raw`{"note":"\ude00\ud83d"}`],
    ["a raw lone surrogate in the text", `{"note":"a\ud800b"}`],
  ])("refuses %s as INVALID_INPUT, and the tool does not run", async (_name, inputJson) => {
    expect(await count()).toBe("count 1");
    const r = await session.execute({ toolName: "counter", inputJson });
    if (r.ok) throw new Error("expected an error");
    expect(r.error.code).toBe(ErrorCode.INVALID_INPUT);
    expect(r.error.message).toMatch(/^Invalid JSON in tool input: the string ".*" holds a lone surrogate escape/);
    expect(r.error.suggestion).toContain("surrogate pair");
    expect(await count()).toBe("count 2");
  });

  it("passes well-formed pairs, escaped or raw, and escapes of other characters", async () => {
    for (const inputJson of [String.raw`{"note":"\ud83d\ude00"}`, `{"note":"😀"}`, String.raw`{"note":"\u00e9\\u"}`]) {
      const r = await session.execute({ toolName: "counter", inputJson });
      if (!r.ok) throw new Error(`${inputJson}: ${r.error.message}`);
    }
    expect(await count()).toBe("count 4");
  });

  it("refuses text that is not JSON, and JSON that is not an object", async () => {
    const notJson = await session.execute({ toolName: "counter", inputJson: "{nope" });
    if (notJson.ok) throw new Error("expected an error");
    expect(notJson.error.code).toBe(ErrorCode.INVALID_INPUT);
    expect(notJson.error.message).toMatch(/^Invalid JSON in tool input: /);
    const array = await session.execute({ toolName: "counter", inputJson: "[1]" });
    if (array.ok) throw new Error("expected an error");
    expect(array.error).toMatchObject({ code: ErrorCode.INVALID_INPUT, message: "Tool input must be a JSON object" });
    expect(await count()).toBe("count 1");
  });
});

/** Shows the input it was given: its own keys, in order, and each key's JSON value. */
const echo = defineTool({
  id: "echo",
  kind: "other",
  description: "Echo.",
  input: Type.Object({ text: Type.String(), flag: Type.Optional(Type.Boolean()) }, { additionalProperties: true }),
  output: Type.Object({ type: Type.Literal("Text") }, { additionalProperties: true }),
  // In place, as the ToolSpec allows: the object is this call's own.
  normalizeInput: (raw) => {
    if (raw.flag === "yes") raw.flag = true;
    return raw;
  },
  execute: (input) => ({
    output: { type: "Text" as const },
    promptText: JSON.stringify(Object.entries(input)),
  }),
});

describe("the input object a tool gets", () => {
  let dirs: Awaited<ReturnType<typeof tempDirs>>;
  let session: Session;
  beforeEach(async () => {
    dirs = await tempDirs();
    session = makeSession(dirs, { registry: ToolRegistry.of([defineNamespace({ name: "Echo", apiVersion: 1, tools: [echo] })]) });
  });
  afterEach(async () => {
    await session.close();
    await dirs.cleanup();
  });

  async function echoed(inputJson: string, toolName = "echo"): Promise<string> {
    const r = await session.execute({ toolName, inputJson });
    if (!r.ok) throw new Error(r.error.message);
    return r.promptText;
  }

  it("passes canonical keys as they are, normalized in place, and drops an own __proto__ key", async () => {
    const out = await session.finalize({ tools: [{ id: "Echo:echo" }] });
    if (!out.ok) throw new Error(out.message);
    expect(await echoed('{"text":"a","flag":"yes","extra":[1]}')).toBe('[["text","a"],["flag",true],["extra",[1]]]');
    expect(await echoed('{"text":"a","__proto__":{"polluted":true},"after":1}')).toBe('[["text","a"],["after",1]]');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("gives renamed keys back their canonical names, in the order sent", async () => {
    const out = await session.finalize({ tools: [{ id: "Echo:echo", nameOverride: "say", paramsNameOverrides: { text: "words" } }] });
    if (!out.ok) throw new Error(out.message);
    expect(await echoed('{"flag":"yes","words":"hi"}', "say")).toBe('[["flag",true],["text","hi"]]');
    expect(await echoed('{"words":"hi","__proto__":1}', "say")).toBe('[["text","hi"]]');
    // The canonical name sent beside the client one passes through too; the later key wins.
    expect(await echoed('{"words":"hi","text":"raw"}', "say")).toBe('[["text","raw"]]');
  });
});
