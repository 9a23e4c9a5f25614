// Integration: how shell commands run, through the real grok-tools-server (built) and the real
// client: signal deaths reported as the spec says (foreground warm and cold, background), in
// both containment modes; commands that cannot find the server's token or callback secret;
// 200 concurrent commands that all complete; a NUL in the command refused as bad input.
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { ErrorCode } from "@grok-tools/proto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnServer, type SpawnedServer } from "../src/spawn-server.js";
import { createToolsClient, type ExecuteOptions } from "../src/client.js";
import { ToolsRpcError } from "../src/errors.js";
import type { ToolCallResult } from "../src/tool-result.js";

jest.setTimeout(120_000);

const TOKEN = `tok-${"7".repeat(24)}-secret`;
const CALLBACK_SECRET = `cb-${"5".repeat(24)}-secret`;
const SHELL_TOOLS = ["GrokBuild:run_terminal_cmd", "GrokBuild:get_task_output", "GrokBuild:kill_task", "GrokBuild:wait_tasks"].map((id) => ({ id }));

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "gtc-shell-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const workspaceOf = new Map<SpawnedServer, string>();

async function start(name: string, env: NodeJS.ProcessEnv = process.env): Promise<SpawnedServer> {
  const workspace = await mkdtemp(path.join(root, `${name}-ws-`));
  // The token on the command line and in the environment: the worst a host can do. (spawnServer's
  // own `authToken` would hand it over stdin, which the server refuses beside `--auth-token`.)
  const spawned = await spawnServer({
    workspace,
    stateDir: path.join(root, `${name}-state`),
    args: ["--auth-token", TOKEN],
    env: { ...env, GROK_TOOLS_AUTH_TOKEN: TOKEN },
  });
  spawned.client.close();
  const client = createToolsClient({ address: spawned.address, authToken: TOKEN });
  const server: SpawnedServer = {
    ...spawned,
    client,
    close: () => {
      client.close();
      return spawned.close();
    },
  };
  const finalized = await server.client.finalize({ tools: SHELL_TOOLS, clientCallbackAddr: "127.0.0.1:1", clientCallbackSecret: CALLBACK_SECRET });
  expect(finalized.success).toBe(true);
  workspaceOf.set(server, workspace);
  return server;
}

function prompt(result: ToolCallResult): string {
  if (!result.ok) throw new Error(`call failed: ${JSON.stringify(result.error)}`);
  return result.promptText;
}

const run = (server: SpawnedServer, command: string, extra: Record<string, unknown> = {}, options: ExecuteOptions = {}) =>
  server.client.executeTool("run_terminal_cmd", { command, description: "test", ...extra }, { deadlineMs: 60_000, ...options });

describe.each([
  ["the detected isolation", {}],
  ["the process-group fallback", { GROK_TOOLS_PROCESS_ISOLATION: "process-group" }],
])("signal deaths under %s", (_name, extraEnv) => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await start(`sig${Object.keys(extraEnv).length}`, { ...process.env, ...extraEnv });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ["kill -9 $$; echo after", "exit: killed (signal 9)\n"],
    ["kill -TERM $$; echo after", "exit: killed (signal 15)\n"],
    ["kill 0; echo after", "exit: killed (signal 15)\n"],
    ["exit 137", "exit: 137\n"],
    ["trap 'echo trapped; exit 3' TERM; kill $$; sleep 5", "exit: 3\ntrapped\n"],
    ["sleep 100 & kill $!; wait $!; echo $?", "exit: 0\n143\n"],
  ])("foreground %s, cold then warm", async (command, expected) => {
    // A working directory no call used before has no spare launcher made for it: cold.
    const fresh = `cold-${Math.random().toString(36).slice(2)}`;
    await mkdir(path.join(workspaceOf.get(server)!, fresh));
    expect(prompt(await run(server, command, {}, { workingDirectory: fresh }))).toBe(expected);
    // Then in the workspace, where spare launchers wait between calls (the unit tests pin warm).
    for (let i = 0; i < 3; i++) expect(prompt(await run(server, command))).toBe(expected);
  });

  it("reports background tasks that die by a signal as failed, without an exit code", async () => {
    const started = await run(server, "echo bg; kill -9 $$", { is_background: true });
    const id = (started.ok && (started.output as { task_id: string }).task_id) || "";
    const exited = await run(server, "exit 137", { is_background: true });
    const exitedId = (exited.ok && (exited.output as { task_id: string }).task_id) || "";
    prompt(await server.client.executeTool("wait_tasks", { task_ids: [id, exitedId], mode: "wait_all", timeout_ms: 30_000 }));
    const killed = prompt(await server.client.executeTool("get_task_output", { task_ids: [id] }));
    expect(killed).toMatch(/\nStatus: failed\nDuration: [0-9.]+s\nOutput File: .*\n\n=== Output ===\nbg\n$/);
    expect(prompt(await server.client.executeTool("get_task_output", { task_ids: [exitedId] }))).toMatch(
      /\nStatus: failed\nDuration: [0-9.]+s\nExit Code: 137\n/,
    );
  });
});

describe("a command looking for the server's secrets", () => {
  let server: SpawnedServer;
  /** Whether commands get a /proc of their own here (not where PID namespaces are refused). */
  let privateProc = false;
  beforeAll(async () => {
    server = await start("secrets");
    privateProc = prompt(await run(server, `[ -e /proc/${server.process.pid} ] && echo shared || echo private`)) === "exit: 0\nprivate\n";
    if (!privateProc)
      console.log("skipping the /proc secret scans: this host refuses commands a PID namespace with its own /proc (see the server's isolation log line)");
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ["ps -eo args"],
    ["cat /proc/*/environ"],
    ["cat /proc/*/cmdline"],
    ["env"],
    // The pattern is assembled by the shell, so that it is not in the command's own argv.
    [`a=${TOKEN.slice(0, 4)}; b=${TOKEN.slice(4, 12)}; grep -l -- "$a$b" /proc/[0-9]*/environ /proc/[0-9]*/cmdline 2>/dev/null; echo scanned`],
    // Root may unmount its /proc (only tried where /proc is already private: elsewhere it would
    // unmount the host's); what is underneath must not be the host's.
    ["[ -e /proc/SERVER_PID ] || { umount /proc || umount -l /proc; }; ls /proc; cat /proc/*/environ /proc/*/cmdline; ps -eo args"],
  ])("finds neither the token nor the callback secret with %s", async (command) => {
    if (!privateProc) return;
    for (const is_background of [false, true]) {
      const result = await run(server, command.replace("SERVER_PID", String(server.process.pid)), { is_background });
      let text = prompt(result);
      if (is_background) {
        const id = (result.ok && (result.output as { task_id: string }).task_id) || "";
        prompt(await server.client.executeTool("wait_tasks", { task_ids: [id], mode: "wait_all", timeout_ms: 30_000 }));
        text = prompt(await server.client.executeTool("get_task_output", { task_ids: [id] }));
        expect(text).toContain("Status: ");
      }
      // The whole output, not the head and tail the reply shows.
      const log = await readFile((result.ok && (result.output as { output_file: string }).output_file) || "", "utf8");
      for (const seen of [text, log]) {
        expect(seen).not.toContain(TOKEN.slice(0, 12));
        expect(seen).not.toContain(CALLBACK_SECRET.slice(0, 12));
      }
    }
  });

  it("really looks: the command sees its own processes in /proc, and its own environment", async () => {
    if (!privateProc) return;
    const text = prompt(
      await run(
        server,
        'export MARK_VAR=visible; cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n" | grep -q "^MARK_VAR=visible$" && echo own-env; ps -o args= -p 1 | grep -q grok-tools-init && echo own-init',
      ),
    );
    expect(text).toBe("exit: 0\nown-env\nown-init\n");
  });
});

describe("many commands at once", () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await start("many");
  });
  afterAll(async () => {
    await server?.close();
  });

  it("runs 200 concurrent commands to completion (beyond 64 they wait their turn)", async () => {
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => run(server, `echo n${i}`)));
    expect(results.map((r) => (r.ok ? r.promptText : JSON.stringify(r.error)))).toEqual(Array.from({ length: 200 }, (_, i) => `exit: 0\nn${i}\n`));
  });
});

describe("a call waiting for room in a full session", () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await start("queue");
  });
  afterAll(async () => {
    await server?.close();
  });

  it("ends at its own deadline, timeout or cancel, and leaves the queue then", async () => {
    // The session's 64 places, taken by commands that never end on their own.
    const ids: string[] = [];
    for (let i = 0; i < 64; i++) {
      const started = await run(server, "sleep 1000", { is_background: true });
      // A start that failed would leave a place free, and the calls below would run at once.
      expect(started).toMatchObject({ ok: true });
      ids.push((started.ok && (started.output as { task_id: string }).task_id) || "");
    }
    // Each of these would take the first free place and keep it, had it stayed in the queue.
    const marker = (name: string) => path.join(workspaceOf.get(server)!, `ran-${name}`);
    const holds = (name: string) => `touch ${marker(name)}; sleep 1000`;
    const byDeadline = run(server, holds("deadline"), {}, { deadlineMs: 1_000 }).catch((e: unknown) => e);
    const byCallTimeout = run(server, holds("call-timeout"), {}, { timeoutMs: 1_000 });
    const byOwnTimeout = run(server, holds("own-timeout"), { timeout: 1_000 });
    const controller = new AbortController();
    const byCancel = run(server, holds("cancel"), {}, { signal: controller.signal }).catch((e: unknown) => e);
    const byCancelBackground = run(server, holds("cancel-bg"), { is_background: true }, { signal: controller.signal }).catch((e: unknown) => e);
    expect(await byDeadline).toMatchObject({ name: "ToolsRpcError", codeName: "DEADLINE_EXCEEDED" });
    expect(await byCallTimeout).toMatchObject({ ok: false, error: { code: ErrorCode.ERROR_CODE_TIMEOUT } });
    expect(await byOwnTimeout).toMatchObject({
      ok: false,
      error: { code: ErrorCode.ERROR_CODE_TIMEOUT, message: expect.stringContaining("did not start within its timeout of 1000 ms") },
    });
    controller.abort();
    expect(await byCancel).toBeInstanceOf(ToolsRpcError);
    expect(await byCancelBackground).toBeInstanceOf(ToolsRpcError);
    // One place frees up: the next call gets it at once, as nobody waits before it any more.
    expect(prompt(await server.client.executeTool("kill_task", { task_id: ids.pop() }))).toBe("killed: Task was terminated successfully");
    expect(prompt(await run(server, "echo next", {}, { deadlineMs: 30_000 }))).toBe("exit: 0\nnext\n");
    expect(["deadline", "call-timeout", "own-timeout", "cancel", "cancel-bg"].filter((name) => existsSync(marker(name)))).toEqual([]);
  });
});

describe("bad input", () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await start("nul");
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses a NUL in the command as INVALID_INPUT with a message the model can act on", async () => {
    const result = await run(server, "echo a\u0000b");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      code: ErrorCode.ERROR_CODE_INVALID_INPUT,
      message: "Invalid command: it contains a NUL character (\\0), which a shell command cannot contain.",
    });
    expect(JSON.stringify(result.error)).not.toMatch(/args\[|ERR_INVALID_ARG/);
  });
});
