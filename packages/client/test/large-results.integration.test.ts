// Integration (issue 23.2): large files and outputs through the real grok-tools-server and the
// client with its default options. Writers answer with a bounded reply (a 5 MB apply_patch used to
// answer 10.6 MB, over gRPC's 4 MiB default, after writing the file), and the client receives what
// the server may send (64 MiB), so a result over 4 MiB arrives too.
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnServer, type SpawnedServer } from "../src/spawn-server.js";
import { spawnTimeoutMs } from "./timeouts.js";

const FIVE_MB_LINES = 100_000;
/** 100 000 lines of 52 bytes: 5.2 MB. */
const bigText = () => Array.from({ length: FIVE_MB_LINES }, (_, i) => `line ${String(i).padStart(6, "0")} ${"x".repeat(38)}\n`).join("");

let root: string;
let workspace: string;
let server: SpawnedServer;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "gtc-large-"));
  workspace = path.join(root, "ws");
  await mkdir(workspace);
  server = await spawnServer({ workspace, stateDir: path.join(root, "state") });
  const finalized = await server.client.finalize({
    tools: [
      { id: "Codex:apply_patch" },
      { id: "GrokBuild:search_replace" },
      { id: "GrokBuild:read_file" },
      { id: "GrokBuild:run_terminal_cmd", paramsJson: JSON.stringify({ enabled_background: false, output_byte_limit: 6_000_000 }) },
    ],
  });
  expect(finalized.success).toBe(true);
}, spawnTimeoutMs());

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

it("applies a patch to a 5 MB file through the default client, with a diff instead of the whole texts", async () => {
  const file = path.join(workspace, "big.txt");
  const original = bigText();
  await writeFile(file, original);
  const patch =
    "*** Begin Patch\n*** Update File: big.txt\n@@\n line 050000 " +
    "x".repeat(38) +
    "\n-line 050001 " +
    "x".repeat(38) +
    "\n+line fifty thousand and one\n*** End Patch";
  const result = await server.client.executeTool("apply_patch", { patch });
  if (!result.ok) throw new Error(result.error.message);
  expect(result.promptText).toBe(`Success. Updated the following files:\nM ${file}\n`);
  const expected = original.replace(`line 050001 ${"x".repeat(38)}\n`, "line fifty thousand and one\n");
  expect(await readFile(file, "utf8")).toBe(expected);
  const success = (result.output as { Success: { files: Record<string, unknown>[] } }).Success;
  expect(success.files).toEqual([
    {
      path: file,
      action: "modified",
      content_omitted: true,
      old_bytes: Buffer.byteLength(original),
      new_bytes: Buffer.byteLength(expected),
      diff: expect.stringContaining(`-line 050001 ${"x".repeat(38)}\n+line fifty thousand and one\n`),
    },
  ]);
  expect(JSON.stringify(result.output).length).toBeLessThan(64 * 1024);
}, 60_000);

it("creates and edits a 5 MB file with search_replace, echoing a summary instead of the content", async () => {
  const content = bigText();
  const created = await server.client.executeTool("search_replace", { file_path: "made.txt", old_string: "", new_string: content });
  if (!created.ok) throw new Error(created.error.message);
  expect(created.promptText).toBe("The file made.txt has been created successfully.");
  expect(created.output).toMatchObject({
    EditsApplied: { old_string: "", new_string: "", content_omitted: true, new_string_bytes: Buffer.byteLength(content), replacements: 1 },
  });
  expect(await readFile(path.join(workspace, "made.txt"), "utf8")).toBe(content);
  // A small edit of the big file still echoes in full: only the edit's own text counts.
  const edited = await server.client.executeTool("search_replace", { file_path: "made.txt", old_string: "line 000007 ", new_string: "line seven " });
  if (!edited.ok) throw new Error(edited.error.message);
  expect(edited.output).toMatchObject({ EditsApplied: { old_string: "line 000007 ", new_string: "line seven ", edits: { details: [{ old_line: 8 }] } } });
  expect(edited.output).not.toHaveProperty("EditsApplied.content_omitted");
}, 60_000);

it("receives a result over gRPC's 4 MiB default: the client's limit is the server's", async () => {
  const result = await server.client.executeTool("run_terminal_cmd", { command: "head -c 5000000 /dev/zero | tr '\\0' x", description: "5 MB of output" });
  if (!result.ok) throw new Error(result.error.message);
  expect(result.promptText.length).toBeGreaterThan(5_000_000);
}, 60_000);
