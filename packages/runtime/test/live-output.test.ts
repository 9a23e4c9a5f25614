// The live-output hook (issue 20): ctx.emitOutput reaches ExecuteRequest.onOutput while the call
// runs, as bytes (strings as UTF-8); ctx.liveOutput says whether anyone listens; after the call
// has returned (a command moved to the background keeps printing) nothing more is forwarded, and
// a listener that throws stops live output without failing the call.
import { describe, expect, it } from "@jest/globals";
import { Type, defineNamespace, defineTool, type ToolContext } from "../src/index.js";
import { Session, ToolRegistry } from "../src/host.js";
import { tempDirs } from "./fixtures.js";

let leaked: ToolContext | undefined;

const printer = defineTool({
  id: "printer",
  kind: "other",
  description: "Prints.",
  input: Type.Object({}),
  output: Type.Object({ type: Type.Literal("Printed"), listening: Type.Boolean() }),
  async execute(_input, ctx) {
    leaked = ctx;
    ctx.emitOutput("héllo ");
    ctx.emitOutput(new Uint8Array([0xff, 0x0a]));
    ctx.emitOutput("");
    return { output: { type: "Printed" as const, listening: ctx.liveOutput }, promptText: "done" };
  },
});

async function withSession(run: (session: Session) => Promise<void>): Promise<void> {
  const dirs = await tempDirs();
  const session = new Session({
    registry: ToolRegistry.of([defineNamespace({ name: "Live", apiVersion: 1, tools: [printer] })]),
    workspace: dirs.workspace,
    stateDir: dirs.stateDir,
  });
  try {
    const out = await session.finalize({ tools: [{ id: "Live:printer" }] });
    if (!out.ok) throw new Error(out.message);
    await run(session);
  } finally {
    await session.close();
    await dirs.cleanup();
  }
}

describe("ctx.emitOutput", () => {
  it("forwards live output as bytes while the call runs, and nothing once it returned", async () => {
    await withSession(async (session) => {
      const chunks: Buffer[] = [];
      const call = await session.execute({ toolName: "printer", inputJson: "{}", onOutput: (bytes) => chunks.push(Buffer.from(bytes)) });
      expect(call).toMatchObject({ ok: true, promptText: "done", outputJson: '{"type":"Printed","listening":true}' });
      expect(Buffer.concat(chunks)).toEqual(Buffer.concat([Buffer.from("héllo ", "utf8"), Buffer.from([0xff, 0x0a])]));
      expect(chunks).toHaveLength(2);
      leaked!.emitOutput("late");
      expect(leaked!.liveOutput).toBe(false);
      expect(chunks).toHaveLength(2);
    });
  });

  it("is a no-op without a listener, and a throwing listener does not fail the call", async () => {
    await withSession(async (session) => {
      const unary = await session.execute({ toolName: "printer", inputJson: "{}" });
      expect(unary).toMatchObject({ ok: true, outputJson: '{"type":"Printed","listening":false}' });
      let calls = 0;
      const throwing = await session.execute({
        toolName: "printer",
        inputJson: "{}",
        onOutput: () => {
          calls += 1;
          throw new Error("listener broke");
        },
      });
      // The first failure stops live output for the call; the result is unaffected.
      expect(throwing).toMatchObject({ ok: true, outputJson: '{"type":"Printed","listening":false}' });
      expect(calls).toBe(1);
    });
  });
});
