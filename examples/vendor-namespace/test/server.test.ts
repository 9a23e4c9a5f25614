/**
 * The package as the server sees it: `grok-tools-server --namespace @acme/grok-tools-acme` started
 * as a child process (the package must be built and installed where the server starts), called
 * through the real client.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnServer, type SpawnedServer } from "@grok-tools/client";
import { ErrorCode } from "@grok-tools/runtime";

let server: SpawnedServer;
let workspace: string;

beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "acme-"));
  await writeFile(path.join(workspace, "a.txt"), "hello world\n");
  server = await spawnServer({ workspace, stateDir: path.join(workspace, ".state"), args: ["--namespace", "@acme/grok-tools-acme"] });
});

afterAll(async () => {
  await server?.close();
  await rm(workspace, { recursive: true, force: true });
});

test("the server lists, finalizes and runs the tool", async () => {
  const { client } = server;
  const listed = await client.listTools({});
  expect(listed.tools.map((t) => t.name)).toContain("Acme:word_count");
  expect((await client.finalize({ tools: [{ id: "Acme:word_count" }] })).success).toBe(true);
  const result = await client.executeTool("word_count", { path: "a.txt" });
  if (!result.ok) throw new Error(result.error.message);
  expect(result.promptText).toBe("a.txt: 1 lines, 2 words, 12 characters");
});

test("a path outside the workspace is refused by the runtime", async () => {
  // readFileConfined refuses it before anything tells whether it exists: PERMISSION_DENIED (204) on the wire.
  const result = await server.client.executeTool("word_count", { path: "/etc/hostname" });
  expect(result).toMatchObject({ ok: false, error: { code: ErrorCode.PERMISSION_DENIED } });
});
