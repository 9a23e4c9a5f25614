import { mkdtemp, mkdir, readFile, writeFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Type } from "../schema/typebox.js";
import { defineTool } from "../tool/define-tool.js";
import { defineNamespace } from "../tool/define-namespace.js";
import { ToolError } from "../errors/tool-error.js";
import { ErrorCode } from "../errors/error-code.js";
import { loadGoldenCases, runGoldenCase, runGoldenSuite } from "./golden.js";

const writeNote = defineTool({
  id: "write_note",
  kind: "edit",
  description: "Writes a note.",
  input: Type.Object({ name: Type.String(), text: Type.String() }),
  output: Type.Object({ type: Type.Literal("Note"), path: Type.String() }),
  async execute(input, ctx) {
    if (input.name === "") throw new ToolError(ErrorCode.INVALID_INPUT, `empty name in ${ctx.cwd}`, { suggestion: "give a name" });
    const file = path.join(ctx.cwd, input.name);
    await writeFile(file, input.text);
    return { output: { type: "Note" as const, path: file }, promptText: `wrote ${file}` };
  },
});
const ns = defineNamespace({ name: "Test", apiVersion: 1, tools: [writeNote] });

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "golden-test-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function makeCase(name: string, input: Record<string, unknown>, withTree: boolean): Promise<string> {
  const dir = path.join(root, "write_note", name);
  await mkdir(path.join(dir, "input"), { recursive: true });
  await writeFile(path.join(dir, "input", "old.txt"), "old\n");
  if (withTree) await mkdir(path.join(dir, "expected"));
  await writeFile(path.join(dir, "request.json"), JSON.stringify({ tools: [{ id: "Test:write_note" }], call: { tool: "write_note", input } }));
  return dir;
}

test("update writes expected files with placeholders, and a rerun matches", async () => {
  const dir = await makeCase("001_ok", { name: "n.txt", text: "hi" }, true);
  const [goldenCase] = await loadGoldenCases(root);
  expect(goldenCase?.name).toBe("write_note/001_ok");
  await runGoldenCase(goldenCase!, { namespaces: [ns], update: true });
  expect(await readFile(path.join(dir, "expected.prompt.txt"), "utf8")).toBe("wrote <WORKSPACE>/n.txt");
  expect(JSON.parse(await readFile(path.join(dir, "expected.json"), "utf8"))).toEqual({ ok: true, output: { type: "Note", path: "<WORKSPACE>/n.txt" } });
  expect(await readFile(path.join(dir, "expected", "n.txt"), "utf8")).toBe("hi");
  const { actual, expected } = await runGoldenCase(goldenCase!, { namespaces: [ns], update: false });
  expect(actual).toEqual(expected);
  expect(actual.files).toEqual({ "n.txt": "hi", "old.txt": "old\n" });
});

test("a differing expectation is visible in the comparison", async () => {
  const dir = await makeCase("002_err", { name: "", text: "" }, false);
  await writeFile(
    path.join(dir, "expected.json"),
    JSON.stringify({ ok: false, error: { code: "INVALID_INPUT", message: "empty name in <WORKSPACE>", suggestion: "give a name" } }),
  );
  const [goldenCase] = await loadGoldenCases(root);
  const good = await runGoldenCase(goldenCase!, { namespaces: [ns], update: false });
  expect(good.actual).toEqual(good.expected);
  await writeFile(path.join(dir, "expected.json"), JSON.stringify({ ok: false, error: { code: "NO_MATCHES", message: "x" } }));
  const bad = await runGoldenCase(goldenCase!, { namespaces: [ns], update: false });
  expect(bad.actual).not.toEqual(bad.expected);
});

test("runGoldenSuite registers one test per case through the given function", async () => {
  await makeCase("001_a", { name: "a", text: "" }, false);
  await makeCase("002_b", { name: "b", text: "" }, false);
  const names: string[] = [];
  await runGoldenSuite(root, { namespaces: [ns], test: (name) => names.push(name), assertEqual: () => undefined });
  expect(names).toEqual(["write_note/001_a", "write_note/002_b"]);
});
