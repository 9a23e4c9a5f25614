// A vendor namespace built only from @grok-tools/runtime's root entry (packages/vendor-example, the
// runtime README's Acme example, checked here to be the README's code), loaded into the real server by
// package name and exercised through the real client: the tool and its resource, the toolset rule,
// the reminder, and a ToolError.
import { afterEach, expect, it, jest } from "@jest/globals";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ErrorCode } from "@grok-tools/proto";
import { spawnServer, type SpawnedServer } from "../src/spawn-server.js";
import { spawnTimeoutMs } from "./timeouts.js";

// Each test starts its own server.
jest.setTimeout(spawnTimeoutMs());

const PACKAGES = path.resolve(import.meta.dirname, "..", "..");
let server: SpawnedServer | undefined;
let root: string | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  if (root) await rm(root, { recursive: true, force: true });
});

async function start(): Promise<SpawnedServer> {
  root = await mkdtemp(path.join(tmpdir(), "grok-vendor-"));
  server = await spawnServer({ workspace: root, stateDir: path.join(root, ".state"), args: ["--namespace", "@grok-tools/vendor-example"] });
  return server;
}

it("is the README's example, word for word", () => {
  const readme = readFileSync(path.join(PACKAGES, "runtime", "README.md"), "utf8");
  const example = /## A namespace with a tool, a resource, a reminder and a toolset rule\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  const source = readFileSync(path.join(PACKAGES, "vendor-example", "src", "index.ts"), "utf8");
  expect(example).toBeDefined();
  expect(source.slice(source.indexOf("import "))).toBe(example);
});

it("is refused by its toolset rule without a read tool", async () => {
  const { client } = await start();
  const refused = await client.finalize({ tools: [{ id: "Acme:shout" }] });
  expect(refused.success).toBe(false);
  expect(refused.message).toBe("(toolset): tools; Acme:shout needs a read tool in the toolset.");
  expect(refused.violations).toMatchObject([{ toolId: "(toolset)", fieldPath: "tools", category: "acme_needs_reader" }]);
});

it("runs its tool, keeps its resource, appends its reminder and fails with a ToolError", async () => {
  const { client } = await start();
  const listed = await client.listTools({});
  expect(listed.tools.map((t) => t.name)).toContain("Acme:shout");
  const finalized = await client.finalize({ tools: [{ id: "Acme:shout" }, { id: "GrokBuild:read_file" }], systemRemindersEnabled: true });
  expect(finalized.success).toBe(true);
  const texts: string[] = [];
  for (const text of ["a", "b", "c"]) {
    const result = await client.executeTool("shout", { text });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.output).toEqual({ type: "Shout", text: text.toUpperCase() });
    texts.push(result.promptText);
  }
  expect(texts).toEqual(["A", "B", "C\n\n<system-reminder>\nThat is a lot of shouting.\n</system-reminder>"]);
  const state = await client.getToolState({});
  expect(JSON.parse(state.stateJson || "{}")).toMatchObject({ state: { "acme.Shouts": { count: 3 } } });
  const empty = await client.executeTool("shout", { text: "" });
  expect(empty).toMatchObject({ ok: false, error: { code: ErrorCode.ERROR_CODE_INVALID_INPUT, message: "text is empty", suggestion: "Send some text." } });
});
