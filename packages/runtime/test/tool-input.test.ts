/**
 * What ExecuteTool makes of `input_json` before a tool runs: text that is not JSON, JSON that is
 * not an object, and strings holding a lone surrogate (escaped or raw, in a key or a value, at any
 * depth) are INVALID_INPUT, and the tool does not run; a well-formed pair passes.
 */
import { ErrorCode } from "../src/index.js";
import { type Session } from "../src/host.js";
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
