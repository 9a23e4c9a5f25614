// Issue #21 done-when: a reply lost after the server applied an edit is retried by the client with
// the same call_id, and the file is edited exactly once, also when the server restarted in between
// with the same state dir. Also: a repeat with another input is INVALID_INPUT, read-only tools re-run.
// Appends (not idempotent: a second run shows) through run_terminal_cmd: a lost reply, a call
// cancelled by its caller while the command runs, and one cut by its deadline and retried by the
// client; each time the line is appended exactly once.
import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ErrorCode } from "@grok-tools/proto";
// The real server runs in this process so the test can restart it on the same state dir between
// the cut reply and the retry; the client package itself never imports the server.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createToolsServer, type ToolsServer } from "@grok-tools/server";
import { createToolsClient } from "../src/index.js";
import { CuttingProxy } from "./cutting-proxy.js";
import { waitFor } from "./wait-for.js";

const TOOLS = [{ id: "GrokBuild:search_replace", paramsJson: '{"skip_read_before_edit":true}' }, { id: "GrokBuild:read_file" }];
const APPEND_TOOLS = [{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }];
const log = { debug() {}, info() {}, warn() {}, error: (o: object, m?: string) => console.error(m, o) };

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function serve(dir: string): Promise<{ server: ToolsServer; port: number }> {
  const server = createToolsServer({ workspace: path.join(dir, "ws"), stateDir: path.join(dir, "state"), log });
  const address = await server.listen("127.0.0.1:0");
  return { server, port: Number(address.slice(address.lastIndexOf(":") + 1)) };
}

function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "grok-retry-"));
  mkdirSync(path.join(dir, "ws"));
  writeFileSync(path.join(dir, "ws", "config.txt"), "value=1\n");
  cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const edit = { file_path: "config.txt", old_string: "value=1", new_string: "value=2" };

describe("idempotent retries (call_id)", () => {
  it("a reply lost after the edit was applied: the retry is answered from the record, the file is edited once", async () => {
    const dir = workspace();
    const { server, port } = await serve(dir);
    cleanup.push(() => server.shutdown(500));
    const { proxy, port: proxyPort } = await CuttingProxy.start(port);
    cleanup.push(() => proxy.close());
    const client = createToolsClient({ address: `127.0.0.1:${proxyPort}`, retry: { initialBackoffMs: 20 } });
    cleanup.push(async () => client.close());
    expect((await client.finalize({ tools: TOOLS })).success).toBe(true);

    proxy.holdReplies = true;
    const pending = client.executeTool("search_replace", edit, { callId: "edit-1" });
    const file = path.join(dir, "ws", "config.txt");
    await waitFor(() => readFileSync(file, "utf8") === "value=2\n");
    // The answer is on its way back (held by the proxy) once the record holds it.
    await waitFor(() => recorded(server, "edit-1"));
    await waitFor(() => proxy.heldBytes > 0);
    proxy.cut();

    const result = await pending;
    expect(result).toMatchObject({ ok: true, replayed: true, callId: "edit-1" });
    expect(readFileSync(file, "utf8")).toBe("value=2\n");

    // A repeat later is a replay too; a new call id runs the tool (and finds nothing to replace).
    expect(await client.executeTool("search_replace", edit, { callId: "edit-1" })).toMatchObject({ ok: true, replayed: true });
    const fresh = await client.executeTool("search_replace", edit, { callId: "edit-2" });
    expect(fresh).toMatchObject({ ok: false });
    expect(fresh.replayed).toBeUndefined();
  }, 30_000);

  it("the same holds across a server restart with the same state dir (routed session)", async () => {
    const dir = workspace();
    const first = await serve(dir);
    // eslint-disable-next-line prefer-const -- assigned below, after the cleanup that reads it is registered
    let second: { server: ToolsServer; port: number } | undefined;
    cleanup.push(async () => {
      await first.server.shutdown(200);
      await second?.server.shutdown(500);
    });
    const { proxy, port: proxyPort } = await CuttingProxy.start(first.port);
    cleanup.push(() => proxy.close());
    const client = createToolsClient({ address: `127.0.0.1:${proxyPort}`, sessionId: "agent-7", retry: { initialBackoffMs: 50, maxAttempts: 6 } });
    cleanup.push(async () => client.close());
    expect((await client.finalize({ tools: TOOLS })).success).toBe(true);

    proxy.holdReplies = true;
    const pending = client.executeTool("search_replace", edit, { callId: "edit-restart" });
    const file = path.join(dir, "ws", "config.txt");
    await waitFor(() => readFileSync(file, "utf8") === "value=2\n");
    await waitFor(() => recorded(first.server, "edit-restart", "agent-7"));
    await waitFor(() => proxy.heldBytes > 0);
    // The first server goes away with the answer undelivered; a new one takes the same state dir.
    await first.server.shutdown(200);
    second = await serve(dir);
    proxy.target = second.port;
    proxy.cut();

    const result = await pending;
    expect(result).toMatchObject({ ok: true, replayed: true, callId: "edit-restart" });
    expect(readFileSync(file, "utf8")).toBe("value=2\n");
  }, 30_000);

  it("a repeated call_id with another input is INVALID_INPUT; nothing changes", async () => {
    const dir = workspace();
    const { server, port } = await serve(dir);
    cleanup.push(() => server.shutdown(500));
    const client = createToolsClient({ address: `127.0.0.1:${port}` });
    cleanup.push(async () => client.close());
    await client.finalize({ tools: TOOLS });
    const firstRun = await client.executeTool("search_replace", edit, { callId: "c1" });
    expect(firstRun).toMatchObject({ ok: true });
    expect(firstRun.replayed).toBeUndefined();
    const other = await client.executeTool("search_replace", { ...edit, old_string: "value=2", new_string: "value=3" }, { callId: "c1" });
    expect(other.ok).toBe(false);
    if (!other.ok) {
      expect(other.error.code).toBe(ErrorCode.ERROR_CODE_INVALID_INPUT);
      expect(other.error.message).toMatch(/call_id 'c1' was already used/);
    }
    expect(readFileSync(path.join(dir, "ws", "config.txt"), "utf8")).toBe("value=2\n");
  });

  it("concurrent repeats of one call_id run the tool once; read-only tools re-run", async () => {
    const dir = workspace();
    const { server, port } = await serve(dir);
    cleanup.push(() => server.shutdown(500));
    const client = createToolsClient({ address: `127.0.0.1:${port}` });
    cleanup.push(async () => client.close());
    await client.finalize({ tools: TOOLS });
    const results = await Promise.all([1, 2, 3, 4].map(() => client.executeTool("search_replace", edit, { callId: "same" })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.replayed).length).toBe(3);

    const before = await client.executeTool("read_file", { target_file: "config.txt" }, { callId: "r1" });
    writeFileSync(path.join(dir, "ws", "config.txt"), "value=9\n");
    const after = await client.executeTool("read_file", { target_file: "config.txt" }, { callId: "r1" });
    expect(before.ok && before.promptText).toContain("value=2");
    expect(after).toMatchObject({ ok: true });
    expect(after.replayed).toBeUndefined();
    expect(after.ok && after.promptText).toContain("value=9");
  });
});

describe("idempotent retries of an append (not idempotent by itself)", () => {
  const lines = (dir: string) => {
    const file = path.join(dir, "ws", "log.txt");
    return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
  };

  it("a reply lost after the append: the retry is answered from the record, the line is appended once", async () => {
    const dir = workspace();
    const { server, port } = await serve(dir);
    cleanup.push(() => server.shutdown(500));
    const { proxy, port: proxyPort } = await CuttingProxy.start(port);
    cleanup.push(() => proxy.close());
    const client = createToolsClient({ address: `127.0.0.1:${proxyPort}`, retry: { initialBackoffMs: 20 } });
    cleanup.push(async () => client.close());
    expect((await client.finalize({ tools: APPEND_TOOLS })).success).toBe(true);

    proxy.holdReplies = true;
    const pending = client.executeTool("run_terminal_cmd", { command: "echo x >> log.txt", description: "Append a line" }, { callId: "append-1" });
    await waitFor(() => recorded(server, "append-1"));
    await waitFor(() => proxy.heldBytes > 0);
    proxy.cut();
    expect(await pending).toMatchObject({ ok: true, replayed: true, callId: "append-1" });
    expect(lines(dir)).toEqual(["x"]);
    expect(await client.executeTool("run_terminal_cmd", { command: "echo x >> log.txt", description: "Append a line" }, { callId: "append-1" })).toMatchObject({
      ok: true,
      replayed: true,
    });
    expect(lines(dir)).toEqual(["x"]);
  }, 30_000);

  it("cancelled by its caller after the append, while the command still runs: a retry with the call_id replays, never re-runs", async () => {
    const dir = workspace();
    const { server, port } = await serve(dir);
    cleanup.push(() => server.shutdown(500));
    const client = createToolsClient({ address: `127.0.0.1:${port}` });
    cleanup.push(async () => client.close());
    expect((await client.finalize({ tools: APPEND_TOOLS })).success).toBe(true);

    const input = { command: "echo x >> log.txt; sleep 4", description: "Append, then work" };
    const controller = new AbortController();
    const first = client.executeTool("run_terminal_cmd", input, { callId: "cancel-1", signal: controller.signal });
    await waitFor(() => lines(dir).length === 1);
    controller.abort();
    await expect(first).rejects.toMatchObject({ codeName: "CANCELLED" });
    // The retry comes while the cancelled command may still be dying: it waits for it, and gets its result.
    const retry = await client.executeTool("run_terminal_cmd", input, { callId: "cancel-1" });
    expect(retry).toMatchObject({ ok: true, replayed: true, callId: "cancel-1" });
    expect(retry.ok && retry.promptText).toMatch(/killed/);
    expect(lines(dir)).toEqual(["x"]);
  }, 30_000);

  it("cut by its deadline while the command runs: the client retries with the same call_id and gets the first run, appended once", async () => {
    const dir = workspace();
    const { server, port } = await serve(dir);
    cleanup.push(() => server.shutdown(500));
    const client = createToolsClient({ address: `127.0.0.1:${port}`, retry: { initialBackoffMs: 20 } });
    cleanup.push(async () => client.close());
    expect((await client.finalize({ tools: APPEND_TOOLS })).success).toBe(true);

    const result = await client.executeTool(
      "run_terminal_cmd",
      { command: "echo x >> log.txt; sleep 6", description: "Append, then work" },
      { callId: "deadline-1", deadlineMs: 3000 },
    );
    expect(result).toMatchObject({ ok: true, replayed: true, callId: "deadline-1" });
    expect(lines(dir)).toEqual(["x"]);
  }, 60_000);
});

/** Whether the session's idempotency record holds `callId` on disk. */
function recorded(server: ToolsServer, callId: string, sessionId?: string): boolean {
  const session = sessionId === undefined ? server.session : server.sessions.peek(sessionId);
  if (!session) return false;
  const file = path.join(session.sessionDir, "call_results.jsonl");
  return existsSync(file) && readFileSync(file, "utf8").includes(`"id":"${callId}"`);
}
