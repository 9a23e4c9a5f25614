import { describe, expect, it } from "@jest/globals";
import { ErrorCode, StreamDataKind, type StreamFinalResult, type ToolStreamChunk } from "@grok-tools/proto";
import { StreamAssembler } from "./stream-assembler.js";

const P = StreamDataKind.STREAM_DATA_KIND_PROMPT_TEXT;
const O = StreamDataKind.STREAM_DATA_KIND_OUTPUT_JSON;
const L = StreamDataKind.STREAM_DATA_KIND_UNSPECIFIED;
const data = (kind: StreamDataKind, bytes: Buffer | string, offset: number): ToolStreamChunk => ({
  callId: "c",
  chunk: { $case: "data", value: { kind, data: Buffer.from(bytes), offset } },
});
const final = (value: Partial<StreamFinalResult>): ToolStreamChunk => ({
  callId: "c",
  chunk: { $case: "finalResult", value: { promptTextSize: 0, outputJsonSize: 0, ...value } },
});

function assemble(chunks: ToolStreamChunk[]) {
  const assembler = new StreamAssembler("read_file");
  for (const c of chunks) assembler.push(c);
  return assembler.finish();
}

describe("StreamAssembler", () => {
  it("joins a code point split across chunks and keeps a leading BOM", () => {
    const bytes = Buffer.from("\uFEFFé€", "utf8");
    const result = assemble([
      data(P, bytes.subarray(0, 4), 0),
      data(P, bytes.subarray(4), 4),
      data(O, "{}", 0),
      final({ promptTextSize: bytes.length, outputJsonSize: 2 }),
    ]);
    expect(result).toMatchObject({ ok: true, promptText: "\uFEFFé€", output: {} });
  });

  it("accepts an empty result", () => {
    expect(assemble([final({})])).toMatchObject({ ok: true, promptText: "", outputJson: "", output: null });
  });

  it("discards streamed data when the final result carries an error", () => {
    const error = { code: ErrorCode.ERROR_CODE_TIMEOUT, message: "timed out", retryable: true };
    expect(assemble([data(P, "partial", 0), final({ error })])).toEqual({ ok: false, error, metadata: undefined, callId: "c" });
  });

  it.each([
    ["a size that does not match", [data(P, "abc", 0), final({ promptTextSize: 4 })], "received 3 prompt_text bytes but the final result says 4"],
    ["an output_json size that does not match", [data(O, "{}", 0), final({ outputJsonSize: 1 })], "received 2 output_json bytes but the final result says 1"],
    ["a repeated chunk", [data(O, "{}", 0), data(O, "{}", 0)], "output_json chunk at byte offset 0, expected 2"],
    ["a chunk that does not start at 0", [data(P, "b", 1)], "prompt_text chunk at byte offset 1, expected 0"],
    ["a chunk of unknown kind", [data(7 as StreamDataKind, "x", 0)], "data chunk of unknown kind 7"],
    ["a live chunk that skips bytes", [data(L, "ab", 0), data(L, "c", 3)], "live output chunk at byte offset 3, expected 2"],
    ["live output after the result began", [data(P, "a", 0), data(L, "x", 0)], "sent live output after the result's chunks had begun"],
    ["a chunk after the final result", [final({}), data(P, "x", 0)], "sent a chunk after its final result"],
    ["an empty chunk", [{ callId: "c" }], "neither data nor a final result"],
    ["bytes that are not UTF-8", [data(P, Buffer.from([0xff, 0xfe]), 0), final({ promptTextSize: 2 })], "the prompt_text bytes are not valid UTF-8"],
    ["output_json that is not JSON", [data(O, "{", 0), final({ outputJsonSize: 1 })], "output_json for read_file that is not valid JSON"],
  ])("rejects %s", (_name, chunks, message) => {
    expect(() => assemble(chunks as ToolStreamChunk[])).toThrow(message);
  });

  it("hands live output to its listener in order and keeps it out of the result", () => {
    const seen: Array<[string, number]> = [];
    const assembler = new StreamAssembler("run_terminal_cmd", undefined, (bytes, offset) => seen.push([Buffer.from(bytes).toString("latin1"), offset]));
    // Raw bytes (not UTF-8) are fine in live output; the result is the shaped text only.
    const chunks = [
      data(L, "1\n", 0),
      data(L, Buffer.from([0xff, 0x0a]), 2),
      data(P, "exit: 0", 0),
      data(O, "{}", 0),
      final({ promptTextSize: 7, outputJsonSize: 2 }),
    ];
    for (const c of chunks) assembler.push(c);
    expect(seen).toEqual([
      ["1\n", 0],
      ["\xff\n", 2],
    ]);
    expect(assembler.finish()).toMatchObject({ ok: true, promptText: "exit: 0", output: {} });
  });

  it("accepts live output without a listener (a client that asked and then ignores it)", () => {
    expect(assemble([data(L, "x", 0), data(P, "t", 0), final({ promptTextSize: 1 })])).toMatchObject({ ok: true, promptText: "t" });
  });

  it("rejects a stream that ends without its final result", () => {
    expect(() => assemble([data(P, "ab", 0)])).toThrow("ended without a final result (received 2 prompt_text bytes and 0 output_json bytes)");
  });
});
