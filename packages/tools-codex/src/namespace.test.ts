/**
 * The Codex namespace: registration order, kinds, descriptions and input schemas as a model sees them.
 */
import { afterAll, describe, expect, test } from "@jest/globals";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Session, ToolRegistry, describeTools, isNamespace } from "@grok-tools/runtime/host";
import codexDefault, { applyPatch, codex, grepFiles, listDir, readFile } from "./index.js";
import { loadDescription } from "./shared/description.js";

const APPLY_PATCH_DESCRIPTION = loadDescription(import.meta.url, "apply-patch/description.md");

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("Codex namespace", () => {
  test("is the default export and registers the tools in the reference's order", () => {
    expect(isNamespace(codexDefault)).toBe(true);
    expect(codexDefault).toBe(codex);
    expect(codex.tools.map((t) => [t.id, t.kind])).toEqual([
      ["apply_patch", "edit"],
      ["list_dir", "list_dir"],
      ["grep_files", "search"],
      ["read_file", "read"],
    ]);
    expect(codex.tools).toEqual([applyPatch, listDir, grepFiles, readFile]);
  });

  test("the four tools finalize together, with the reference's descriptions", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "codex-ns-"));
    dirs.push(dir);
    const session = new Session({ registry: ToolRegistry.of([codex]), workspace: dir, stateDir: path.join(dir, ".state") });
    const outcome = await session.finalize({
      tools: [{ id: "Codex:read_file" }, { id: "Codex:apply_patch" }, { id: "Codex:list_dir" }, { id: "Codex:grep_files" }],
    });
    expect(outcome.ok).toBe(true);
    const described = describeTools(session);
    const byName = new Map(described.map((t) => [t.name, t]));
    expect(byName.get("read_file")?.description).toBe("Reads a local file with 1-indexed line numbers, supporting slice and indentation-aware block modes.");
    expect(byName.get("list_dir")?.description).toBe("Lists entries in a local directory with 1-indexed entry numbers and simple type labels.");
    // What a model sees of each tool's input: a visible diff on any change.
    expect(Object.fromEntries(described.map((t) => [t.name, JSON.parse(t.inputSchemaJson) as unknown]))).toMatchSnapshot();
    // Byte-identical to the reference after finalize (no placeholder touches the grammar's braces).
    expect(byName.get("apply_patch")?.description).toBe(APPLY_PATCH_DESCRIPTION);
    await session.close();
  });
});
