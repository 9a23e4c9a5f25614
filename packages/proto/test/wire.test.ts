import { describe, expect, it } from "@jest/globals";
import { ExecuteToolRequest, GrokToolsServiceService, GrokToolsCallbackServiceService, ToolStreamChunk, StreamDataKind } from "@grok-tools/proto";

describe("proto wire types", () => {
  it("round-trips an ExecuteToolRequest through the binary encoding", () => {
    const req = ExecuteToolRequest.fromPartial({ toolName: "read_file", inputJson: '{"target_file":"a"}', callId: "c1" });
    const back = ExecuteToolRequest.decode(ExecuteToolRequest.encode(req).finish());
    expect(back).toEqual(req);
  });

  it("encodes the chunk oneof as a tagged union", () => {
    const chunk = ToolStreamChunk.fromPartial({
      callId: "c",
      chunk: { $case: "data", value: { kind: StreamDataKind.STREAM_DATA_KIND_PROMPT_TEXT, data: Buffer.from("hé"), offset: 0 } },
    });
    const back = ToolStreamChunk.decode(ToolStreamChunk.encode(chunk).finish());
    expect(back.chunk?.$case).toBe("data");
  });

  it("describes both services with their full method paths", () => {
    expect(GrokToolsServiceService.executeTool.path).toBe("/xai.grok.tools.v1.GrokToolsService/ExecuteTool");
    expect(Object.keys(GrokToolsServiceService)).toHaveLength(22);
    expect(GrokToolsCallbackServiceService.spawnSubagent.path).toBe("/xai.grok.tools.v1.GrokToolsCallbackService/SpawnSubagent");
  });
});
