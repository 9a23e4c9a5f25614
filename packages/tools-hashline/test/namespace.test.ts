/**
 * The namespace's finalize-time behaviour: the shared `hashline_scheme_params` checks, the
 * scheme-aware descriptions, and the file-bundle rule (against a stand-in GrokBuild namespace: the
 * package may import nothing but the runtime).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Type, defineNamespace, defineTool } from "@grok-tools/runtime";
import { Session, ToolRegistry, type FinalizeOutcome } from "@grok-tools/runtime/host";
import grokBuildHashline from "../src/index.js";

let root: string;
const sessions: Session[] = [];
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "hashline-ns-"));
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await rm(root, { recursive: true, force: true });
});

const standardRead = defineTool({
  id: "read_file",
  kind: "read",
  description: "stand-in",
  input: Type.Object({}),
  output: Type.Object({ type: Type.Literal("X") }),
  execute: async () => ({ output: { type: "X" as const }, promptText: "" }),
});
const standIn = defineNamespace({ name: "GrokBuild", apiVersion: 1, tools: [standardRead] });

function session(namespaces = [grokBuildHashline]): Session {
  const s = new Session({ registry: ToolRegistry.of(namespaces), workspace: root, stateDir: path.join(root, ".state") });
  sessions.push(s);
  return s;
}

function violations(out: FinalizeOutcome) {
  if (out.ok) throw new Error("finalize succeeded");
  return out.violations.map((v) => ({ toolId: v.toolId, fieldPath: v.fieldPath, message: v.message, category: v.category }));
}

describe("hashline_scheme_params", () => {
  test.each([
    [{ scheme: "fancy" }, "params.scheme", 'unknown scheme "fancy": expected "chunk" or "content_only"'],
    [{ hash_len: 5 }, "params.hash_len", "hash_len must be 1..=4, got 5"],
    [{ chunk_size: 0 }, "params.chunk_size", "chunk_size must be > 0"],
  ])("%j is refused at finalize", async (params, fieldPath, message) => {
    const out = await session().finalize({ tools: [{ id: "GrokBuildHashline:hashline_read", paramsJson: JSON.stringify(params) }] });
    expect(violations(out)).toEqual([{ toolId: "GrokBuildHashline:hashline_read", fieldPath, message, category: "params_constraint" }]);
  });

  test("unknown keys are refused", async () => {
    const out = await session().finalize({ tools: [{ id: "GrokBuildHashline:hashline_edit", paramsJson: '{"schema":"chunk"}' }] });
    expect(violations(out)[0]?.category).toBe("params_unknown_field");
  });

  test("content_only with chunk_size 0 is accepted and the examples follow the scheme", async () => {
    const s = session();
    const out = await s.finalize({ tools: [{ id: "GrokBuildHashline:hashline_edit", paramsJson: '{"scheme":"content_only","chunk_size":0,"hash_len":2}' }] });
    expect(out.ok).toBe(true);
    const description = s.toolset?.byClientName("hashline_edit")?.description ?? "";
    expect(description).toContain('{ "op": "replace", "anchor": "22:ab", "content": "    let x = 42;" }');
    expect(description).not.toContain("{example_anchor}");
  });
});

describe("file_toolset_conflict", () => {
  const MESSAGE =
    "mixed standard and hashline file tools are not allowed. Use either the standard bundle (read_file, search_replace, grep) or the hashline bundle (hashline_read, hashline_edit, hashline_grep), not both.";

  test("the hashline namespace refuses a toolset mixing it with the standard bundle", async () => {
    const out = await session([standIn, grokBuildHashline]).finalize({ tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuildHashline:hashline_grep" }] });
    expect(violations(out)).toEqual([{ toolId: "(file-toolset)", fieldPath: "tools", message: MESSAGE, category: "file_toolset_conflict" }]);
  });

  test("the hashline bundle alone finalizes", async () => {
    const out = await session([standIn, grokBuildHashline]).finalize({
      tools: [{ id: "GrokBuildHashline:hashline_read" }, { id: "GrokBuildHashline:hashline_edit" }, { id: "GrokBuildHashline:hashline_grep" }],
    });
    expect(out.ok).toBe(true);
  });
});
