// What ops see of a running grok-tools-server: Prometheus metrics on --metrics-listen (calls by RPC,
// tool and outcome, durations, running tasks, sessions, process metrics) and one JSON log line per
// call with call id, session id, tool, duration and outcome, never the token or a file's content.
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { writeFileSync } from "node:fs";
import { get } from "node:http";
import path from "node:path";
import { credentials, status } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient } from "@grok-tools/proto";
import { cleanUp, startServer, tempDir, type RunningServer } from "./run-server.js";
import { headers, statusOf, unary } from "./grpc-call.js";

// Each case starts real server processes; on a loaded machine one start can take several seconds.
jest.setTimeout(120_000);

afterEach(cleanUp);

const TOKEN = "tok-observability-5b1d0e";
const CONTENT = "FILE-CONTENT-MARKER-93e1f7";

function fetchText(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    }).on("error", reject);
  });
}

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(text: string, line: string): number | undefined {
  const found = text.split("\n").find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

async function waitFor(what: string, condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startObserved(): Promise<{ server: RunningServer; client: GrokToolsServiceClient; metricsUrl: string; dir: string }> {
  const dir = tempDir("grok-obs-");
  writeFileSync(path.join(dir, "notes.txt"), `${CONTENT}\n`);
  const tokenFile = path.join(dir, "token");
  writeFileSync(tokenFile, TOKEN);
  const server = startServer([
    "--listen",
    "127.0.0.1:0",
    "--workspace",
    dir,
    "--state-dir",
    path.join(dir, "state"),
    "--auth-token-file",
    tokenFile,
    "--metrics-listen",
    "127.0.0.1:0",
    // The most verbose level: nothing at any level may carry a secret or a file's content.
    "--log-level",
    "trace",
  ]);
  const address = await server.listening;
  // The listening line names the metrics address too (port 0 resolved).
  const line = JSON.parse(server.stdout().trim().split("\n").at(-1)!) as { metrics?: string };
  expect(line.metrics).toMatch(/^127\.0\.0\.1:\d+$/);
  return { server, client: new GrokToolsServiceClient(address, credentials.createInsecure()), metricsUrl: `http://${line.metrics}/metrics`, dir };
}

describe("metrics and call logs", () => {
  it("counts calls by RPC, tool and outcome, and logs each call without secrets or content", async () => {
    const { server, client, metricsUrl } = await startObserved();
    const auth = headers(TOKEN, { "x-grok-session-id": "sess-obs-1" });
    const fin = await unary<{ success: boolean }>(
      client,
      "finalizeToolConfigRequest",
      FinalizeToolServerConfigRequest.fromPartial({
        tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }],
      }),
      auth,
    );
    expect(fin.success).toBe(true);
    const read = await unary<{ result?: { $case: string } }>(
      client,
      "executeTool",
      ExecuteToolRequest.fromPartial({ toolName: "read_file", inputJson: JSON.stringify({ target_file: "notes.txt" }), callId: "call-read-1" }),
      auth,
    );
    expect(read.result?.$case).toBe("success");
    const missing = await unary<{ result?: { $case: string } }>(
      client,
      "executeTool",
      ExecuteToolRequest.fromPartial({ toolName: "read_file", inputJson: JSON.stringify({ target_file: "missing.txt" }), callId: "call-read-2" }),
      auth,
    );
    expect(missing.result?.$case).toBe("error");
    await unary(client, "executeTool", ExecuteToolRequest.fromPartial({ toolName: "no_such_tool_7c2", inputJson: "{}" }), auth);
    expect(await statusOf(client, "listTools", { includeDisabled: false, includeSchemas: false })).toBe(status.UNAUTHENTICATED);
    expect(await statusOf(client, "listTools", { includeDisabled: false, includeSchemas: false }, headers("wrong-token"))).toBe(status.UNAUTHENTICATED);

    // A running command shows in running_tasks while it runs.
    const long = client.executeTool(
      ExecuteToolRequest.fromPartial({
        toolName: "run_terminal_cmd",
        inputJson: JSON.stringify({ command: "sleep 120", description: "wait" }),
        callId: "call-sleep",
      }),
      auth,
      () => undefined,
    );
    await waitFor("running_tasks 1", async () => sample((await fetchText(metricsUrl)).text, "grok_tools_running_tasks") === 1);
    expect(sample((await fetchText(metricsUrl)).text, 'grok_tools_calls_in_flight{rpc="ExecuteTool"}')).toBe(1);
    long.cancel();
    await waitFor("running_tasks 0", async () => sample((await fetchText(metricsUrl)).text, "grok_tools_running_tasks") === 0);
    await waitFor("the cancelled call counted", async () => {
      const now = (await fetchText(metricsUrl)).text;
      return sample(now, 'grok_tools_calls_total{rpc="ExecuteTool",tool="run_terminal_cmd",outcome="cancelled"}') === 1;
    });

    const { status: code, text } = await fetchText(metricsUrl);
    expect(code).toBe(200);
    expect(sample(text, 'grok_tools_calls_total{rpc="ExecuteTool",tool="read_file",outcome="ok"}')).toBe(1);
    expect(sample(text, 'grok_tools_calls_total{rpc="ExecuteTool",tool="read_file",outcome="tool_error"}')).toBe(1);
    expect(sample(text, 'grok_tools_tool_errors_total{tool="read_file",code="FILE_NOT_FOUND"}')).toBe(1);
    expect(sample(text, 'grok_tools_calls_total{rpc="ExecuteTool",tool="(unknown)",outcome="tool_error"}')).toBe(1);
    expect(text).not.toContain("no_such_tool_7c2"); // a client's text never becomes a label
    expect(sample(text, 'grok_tools_calls_total{rpc="ListTools",tool="",outcome="unauthenticated"}')).toBe(2);
    expect(sample(text, 'grok_tools_calls_total{rpc="FinalizeToolConfigRequest",tool="",outcome="ok"}')).toBe(1);
    expect(sample(text, 'grok_tools_calls_total{rpc="ExecuteTool",tool="run_terminal_cmd",outcome="cancelled"}')).toBe(1);
    expect(sample(text, 'grok_tools_call_duration_seconds_count{rpc="ExecuteTool",tool="read_file"}')).toBe(2);
    expect(sample(text, 'grok_tools_call_duration_seconds_bucket{le="+Inf",rpc="ExecuteTool",tool="read_file"}')).toBe(2);
    expect(sample(text, "grok_tools_sessions")).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^# TYPE grok_tools_session_evictions_total counter$/m);
    expect(sample(text, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(text).toMatch(/^nodejs_heap_size_total_bytes \d+/m);
    expect((await fetchText(metricsUrl.replace(/\/metrics$/, "/other"))).status).toBe(404);
    client.close();

    server.child.kill("SIGTERM");
    expect((await server.exited).code).toBe(0);
    const stderr = server.stderr();
    expect(stderr).not.toContain(TOKEN);
    expect(stderr).not.toContain(CONTENT);
    const lines = stderr
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const calls = lines.filter((l) => l.msg === "call");
    for (const c of calls) {
      expect(typeof c.rpc).toBe("string");
      expect(typeof c.durationMs).toBe("number");
      expect(typeof c.outcome).toBe("string");
      expect(c).not.toHaveProperty("inputJson");
    }
    expect(calls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rpc: "ExecuteTool", callId: "call-read-1", sessionId: "sess-obs-1", tool: "read_file", outcome: "ok" }),
        expect.objectContaining({ rpc: "ExecuteTool", callId: "call-read-2", tool: "read_file", outcome: "tool_error", errorCode: "FILE_NOT_FOUND" }),
        expect.objectContaining({ rpc: "ExecuteTool", callId: "call-sleep", tool: "run_terminal_cmd", outcome: "cancelled" }),
        expect.objectContaining({ rpc: "ListTools", outcome: "unauthenticated" }),
      ]),
    );
  });

  it("refuses a --metrics-listen that is not an address, and one in use, before serving", async () => {
    const dir = tempDir("grok-obs-");
    const bad = startServer(["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", path.join(dir, "state"), "--metrics-listen", "nowhere"]);
    expect((await bad.exited).code).toBe(2);
    expect(bad.stderr()).toMatch(/--metrics-listen "nowhere" is not an address/);
    const first = await startObserved();
    const port = new URL(first.metricsUrl).port;
    const clash = startServer([
      "--listen",
      "127.0.0.1:0",
      "--workspace",
      dir,
      "--state-dir",
      path.join(dir, "state2"),
      "--metrics-listen",
      `127.0.0.1:${port}`,
    ]);
    expect((await clash.exited).code).toBe(1);
    expect(clash.stderr()).toMatch(new RegExp(`Cannot listen on 127\\.0\\.0\\.1:${port}: the address is already in use`));
    first.client.close();
  });
});
