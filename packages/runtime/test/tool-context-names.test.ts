/**
 * `ctx.names` (client-facing names after renames): each call sees its own session's toolset, also
 * when sessions share a registry and a lookup is reused from call to call (issue #18 made it once
 * per finalized tool instead of once per call).
 */
import { Type, defineNamespace, defineTool } from "../src/index.js";
import { Session, ToolRegistry } from "../src/host.js";
import { tempDirs } from "./fixtures.js";

const namer = defineTool({
  id: "namer",
  kind: "other",
  description: "Says the names it sees.",
  input: Type.Object({ path: Type.Optional(Type.String()) }),
  output: Type.Object({ type: Type.Literal("Names"), names: Type.Array(Type.String()) }),
  async execute(_input, ctx) {
    const names = [ctx.names.self, ctx.names.tool("read") ?? "-", ctx.names.param("read", "path"), ctx.names.ownParam("path"), ctx.names.ownParam("other")];
    return { output: { type: "Names" as const, names }, promptText: names.join(" ") };
  },
});
const reader = defineTool({
  id: "reader",
  kind: "read",
  description: "Reads.",
  input: Type.Object({ path: Type.String() }),
  output: Type.Object({ type: Type.Literal("Read") }),
  execute: async () => ({ output: { type: "Read" as const }, promptText: "" }),
});
const registry = ToolRegistry.of([defineNamespace({ name: "Names", apiVersion: 1, tools: [namer, reader] })]);

describe("ctx.names", () => {
  it("follows each session's renames, call after call, with one registry", async () => {
    const dirs = [await tempDirs(), await tempDirs()];
    const [plain, renamed] = dirs.map((d) => new Session({ registry, workspace: d.workspace, stateDir: d.stateDir }));
    try {
      const a = await plain!.finalize({ tools: [{ id: "Names:namer" }, { id: "Names:reader" }] });
      const b = await renamed!.finalize({
        tools: [
          { id: "Names:namer", nameOverride: "who", paramsNameOverrides: { path: "where" } },
          { id: "Names:reader", nameOverride: "look", paramsNameOverrides: { path: "file" } },
        ],
      });
      if (!a.ok || !b.ok) throw new Error("finalize failed");
      for (let round = 0; round < 3; round++) {
        const first = await plain!.execute({ toolName: "namer", inputJson: "{}" });
        const second = await renamed!.execute({ toolName: "who", inputJson: "{}" });
        if (!first.ok || !second.ok) throw new Error("call failed");
        expect(first.promptText).toBe("namer reader path path other");
        expect(second.promptText).toBe("who look file where other");
      }
    } finally {
      await Promise.all([plain!.close(), renamed!.close()]);
      await Promise.all(dirs.map((d) => d.cleanup()));
    }
  });
});
