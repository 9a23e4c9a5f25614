// Integration: the real grok-tools-server (built: npx nx run server:build), started with
// spawnServer on 127.0.0.1:0 and on a unix socket, driven by the real client and CLI.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { ErrorCode } from "@grok-tools/proto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCli } from "../src/cli.js";
import { createToolsClient } from "../src/client.js";
import { spawnServer, type SpawnedServer } from "../src/spawn-server.js";
import { spawnTimeoutMs } from "./timeouts.js";

const PATCH_TOOL = "Codex:apply_patch";
const addFile = (name: string, line: string) => ({ patch: `*** Begin Patch\n*** Add File: ${name}\n+${line}\n*** End Patch` });

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "gtc-int-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function start(name: string, listen: "tcp" | "unix", authToken?: string): Promise<{ server: SpawnedServer; workspace: string }> {
  const workspace = await mkdtemp(path.join(root, `${name}-ws-`));
  const server = await spawnServer({ workspace, stateDir: path.join(root, `${name}-state`), listen, ...(authToken ? { authToken } : {}) });
  return { server, workspace };
}

describe("the real server over TCP", () => {
  let server: SpawnedServer;
  let workspace: string;
  beforeAll(async () => {
    ({ server, workspace } = await start("tcp", "tcp"));
  }, spawnTimeoutMs());
  afterAll(async () => {
    await server?.close();
  });

  it("reports a bound 127.0.0.1 port", () => {
    expect(server.address).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
  });

  it("lists registered tools by fq id before finalize, disabled and with their namespace", async () => {
    const list = await server.client.listTools({ includeSchemas: true });
    const tool = list.tools.find((t) => t.name === PATCH_TOOL);
    expect(tool).toMatchObject({ namespace: "Codex", enabled: false });
    expect(JSON.parse(tool!.inputSchemaJson)).toMatchObject({ type: "object" });
  });

  it("finalizes once, then runs the tool through executeTool and executeToolStream", async () => {
    const finalized = await server.client.finalize({ tools: [{ id: PATCH_TOOL }] });
    expect(finalized).toMatchObject({ success: true, tools: [{ name: "apply_patch", enabled: true }] });
    await expect(server.client.finalize({ tools: [{ id: PATCH_TOOL }] })).rejects.toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION });

    const unary = await server.client.executeTool("apply_patch", addFile("a.txt", "from unary"), { deadlineMs: 20_000 });
    expect(unary).toMatchObject({ ok: true, output: { type: expect.any(String) } });
    expect(await readFile(path.join(workspace, "a.txt"), "utf8")).toBe("from unary\n");

    const progress: number[] = [];
    const streamed = await server.client.executeToolStream("apply_patch", addFile("b.txt", "from the stream"), {
      streamChunkSize: 8,
      onProgress: (p) => progress.push(p.promptTextBytes + p.outputJsonBytes),
    });
    expect(streamed.ok).toBe(true);
    if (!streamed.ok || !unary.ok) return;
    expect(Buffer.byteLength(streamed.promptText) + Buffer.byteLength(streamed.outputJson)).toBe(progress.at(-1));
    expect(progress.length).toBeGreaterThan(2);
    expect(streamed.output.type).toBe(unary.output.type);
    expect(await readFile(path.join(workspace, "b.txt"), "utf8")).toBe("from the stream\n");
  });

  it("returns tool failures as { ok: false } with the proto's error codes", async () => {
    const unknown = await server.client.executeTool("no_such_tool", {});
    expect(unknown).toMatchObject({ ok: false, error: { code: ErrorCode.ERROR_CODE_TOOL_NOT_FOUND } });
    const streamedUnknown = await server.client.executeToolStream("no_such_tool", {});
    expect(streamedUnknown).toMatchObject({ ok: false, error: { code: ErrorCode.ERROR_CODE_TOOL_NOT_FOUND } });
  });

  it("refuses a stream_chunk_size over 4 MiB with INVALID_ARGUMENT", async () => {
    await expect(
      server.client.executeToolStream("apply_patch", addFile("big.txt", "x"), { streamChunkSize: 5 * 1024 * 1024, deadlineMs: 10_000 }),
    ).rejects.toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
      rpc: "ExecuteToolStream",
    });
  });

  it("serves GetToolState as { params?, state? } JSON (empty categories are omitted, spec 5.2)", async () => {
    const state = JSON.parse((await server.client.getToolState()).stateJson) as Record<string, unknown>;
    expect(state).toEqual(expect.any(Object));
    for (const key of Object.keys(state)) expect(["params", "state"]).toContain(key);
  });

  it("answers the grok-tools command: list, call, and a tool error exit code", async () => {
    const out: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void out.push(t), env: {} };
    expect(await runCli(["list", "--address", server.address], io)).toBe(0);
    expect(out.join("")).toContain("1 tool(s) enabled:\n  apply_patch  ");
    expect(await runCli(["call", "apply_patch", JSON.stringify(addFile("c.txt", "from the cli")), "--address", server.address], io)).toBe(0);
    expect(await readFile(path.join(workspace, "c.txt"), "utf8")).toBe("from the cli\n");
    expect(await runCli(["call", "apply_patch", JSON.stringify(addFile("d.txt", "streamed by the cli")), "--stream", "--address", server.address], io)).toBe(0);
    expect(await readFile(path.join(workspace, "d.txt"), "utf8")).toBe("streamed by the cli\n");
    expect(await runCli(["call", "apply_patch", "{}", "--address", server.address], io)).toBe(1);
  });
});

describe("the real server over a unix socket, with a token", () => {
  const TOKEN = "integration-token";
  let server: SpawnedServer;
  let workspace: string;
  beforeAll(async () => {
    ({ server, workspace } = await start("unix", "unix", TOKEN));
    await writeFile(path.join(workspace, "README.md"), "# Interop readme\nsecond line\n");
  }, spawnTimeoutMs());
  afterAll(async () => {
    await server?.close();
  });

  it("lists tools with the token; a client without it is refused", async () => {
    expect(server.address).toMatch(/^unix:\/.+\/grok-tools\.sock$/);
    expect((await server.client.listTools()).tools.length).toBeGreaterThan(0);
    const anonymous = createToolsClient({ address: server.address });
    try {
      await expect(anonymous.listTools()).rejects.toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
    } finally {
      anonymous.close();
    }
  });

  it("keeps the README promise: grok-tools call read_file --enable finalizes and reads the file", async () => {
    let stdout = "";
    const io = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stdout += t), env: { GROK_TOOLS_AUTH_TOKEN: TOKEN } };
    const args = ["call", "read_file", '{"target_file":"README.md"}', "--enable", `GrokBuild:read_file,${PATCH_TOOL}`, "--address", server.address];
    expect(await runCli(args, io)).toBe(0);
    expect(stdout).toContain("# Interop readme");
    expect(stdout).toContain("second line");
    await expect(server.client.executeTool("apply_patch", addFile("u.txt", "over unix"))).resolves.toMatchObject({ ok: true });
    const missing = await server.client.executeTool("read_file", { target_file: "nope.md" });
    expect(missing).toMatchObject({ ok: false, error: { code: ErrorCode.ERROR_CODE_FILE_NOT_FOUND } });
  });

  it("stops on close with SIGTERM", async () => {
    const exit = await server.close();
    expect(exit.code === 0 || exit.signal === "SIGTERM").toBe(true);
    expect(server.process.exitCode !== null || server.process.signalCode !== null).toBe(true);
  });
});
