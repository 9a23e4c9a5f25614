import { afterEach, describe, expect, it } from "@jest/globals";
import { status as GrpcStatus, Metadata } from "@grpc/grpc-js";
import { ErrorCode, StreamDataKind, type ExecuteToolRequest, type FinalizeToolServerConfigRequest, type ToolInfo } from "@grok-tools/proto";
import { startFakeServer, type FakeServer } from "../test/fake-server.js";
import { EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE, runCli } from "./cli.js";
import { LIVE_OUTPUT_HEADER } from "./stream-assembler.js";

const REGISTRY = ["GrokBuild:read_file", "Codex:read_file", "GrokBuild:grep", "Codex:shell"];

function info(name: string, enabled: boolean): ToolInfo {
  return {
    name,
    displayName: name,
    description: `Reads things.\nSecond line of ${name}.`,
    category: 1,
    inputSchemaJson: '{"type":"object"}',
    enabled,
    version: "1",
    source: 1,
    outputFormats: [],
    outputFields: [],
    outputSchemaJson: "{}",
    contractVersion: enabled ? "current" : "",
    namespace: enabled ? "" : name.split(":")[0]!,
  };
}

/** A fake server with just enough session behaviour: a registry, one finalize, and read_file. */
async function statefulServer(options: { finalizedWith?: string[]; rejectFinalize?: string } = {}) {
  let enabled: string[] | undefined = options.finalizedWith;
  const server = await startFakeServer({
    listTools: (_call, callback) => {
      const tools = enabled ? enabled.map((id) => info(id.slice(id.indexOf(":") + 1), true)) : REGISTRY.map((id) => info(id, false));
      callback(null, { tools, totalCount: tools.length, enabledCount: enabled?.length ?? 0 });
    },
    getToolInfo: (call, callback) => {
      if (call.request.toolName !== "read_file")
        return callback(
          Object.assign(new Error("x"), { code: GrpcStatus.NOT_FOUND, details: `Tool not found: ${call.request.toolName}`, metadata: new Metadata() }),
        );
      callback(null, info("read_file", true));
    },
    finalizeToolConfigRequest: (call, callback) => {
      if (enabled)
        return callback(Object.assign(new Error("x"), { code: GrpcStatus.FAILED_PRECONDITION, details: "already finalized", metadata: new Metadata() }));
      if (options.rejectFinalize) return callback(null, { success: false, message: options.rejectFinalize, tools: [], versionWarnings: [] });
      enabled = call.request.tools.map((t) => t.id);
      callback(null, {
        success: true,
        message: `Finalized ${enabled.length} tool(s)`,
        tools: enabled.map((id) => info(id.slice(id.indexOf(":") + 1), true)),
        versionWarnings: [],
      });
    },
    executeTool: (call, callback) => {
      const input = JSON.parse(call.request.inputJson) as { target_file?: string };
      if (!enabled?.some((id) => id.endsWith(`:${call.request.toolName}`))) {
        return callback(null, {
          callId: "c",
          result: {
            $case: "error",
            value: { code: ErrorCode.ERROR_CODE_TOOL_NOT_FOUND, message: `Tool not found: ${call.request.toolName}`, retryable: false },
          },
        });
      }
      if (input.target_file !== "README.md") {
        return callback(null, {
          callId: "c",
          result: {
            $case: "error",
            value: {
              code: ErrorCode.ERROR_CODE_FILE_NOT_FOUND,
              message: `File not found: ${input.target_file}`,
              suggestion: "Check the path.",
              retryable: false,
            },
          },
        });
      }
      callback(null, { callId: "c1", result: { $case: "success", value: { outputJson: '{"type":"file_content","content":"# Hi"}', promptText: "1|# Hi" } } });
    },
    getToolState: (_call, callback) => callback(null, { stateJson: '{"params":{},"state":{"todo":[]}}' }),
  });
  return server;
}

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env });
  return { code, stdout, stderr };
}

describe("grok-tools", () => {
  it("list shows every registered tool before finalize and says how to enable them", async () => {
    server = await statefulServer();
    const { code, stdout } = await run(["list", "--address", server.address]);
    expect(code).toBe(EXIT_OK);
    expect(stdout).toContain("Not finalized yet. 4 tool(s) available; enable some with `grok-tools finalize --enable GrokBuild:read_file,...`");
    expect(stdout).toContain("  GrokBuild:read_file  Reads things.\n");
  });

  it("list --json prints the tools as JSON, reading the address from GROK_TOOLS_ADDRESS", async () => {
    server = await statefulServer({ finalizedWith: ["GrokBuild:grep"] });
    const { code, stdout } = await run(["list", "--json"], { GROK_TOOLS_ADDRESS: server.address });
    expect(code).toBe(EXIT_OK);
    expect(JSON.parse(stdout)).toMatchObject({ finalized: true, tools: [{ name: "grep", enabled: true, category: "FILE", inputSchema: { type: "object" } }] });
  });

  it("sends the token from --token or GROK_TOOLS_AUTH_TOKEN", async () => {
    server = await statefulServer();
    await run(["state", "--address", server.address, "--token", "t1"]);
    await run(["state", "--address", server.address], { GROK_TOOLS_AUTH_TOKEN: "t2" });
    expect(server.calls.map((c) => c.metadata.get("authorization")[0])).toEqual(["Bearer t1", "Bearer t2"]);
  });

  it("call without --enable on a fresh server explains how to enable the tool", async () => {
    server = await statefulServer();
    const { code, stdout, stderr } = await run(["call", "read_file", '{"target_file":"README.md"}', "--address", server.address]);
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe("");
    expect(stderr).toContain("The server is not finalized yet, so no tool can be called. Choose the tools with --enable, e.g.:\n");
    expect(stderr).toContain(`grok-tools call read_file '{"target_file":"README.md"}' --enable GrokBuild:read_file`);
    expect(server.calls.map((c) => c.rpc)).toEqual(["ListTools"]);
  });

  it("call --enable read_file finalizes with GrokBuild:read_file, then prints the prompt text", async () => {
    server = await statefulServer();
    const { code, stdout } = await run(["call", "read_file", '{"target_file":"README.md"}', "--enable", "read_file", "--address", server.address]);
    expect(code).toBe(EXIT_OK);
    expect(stdout).toBe("1|# Hi\n");
    expect(server.calls.map((c) => c.rpc)).toEqual(["ListTools", "FinalizeToolConfigRequest", "ExecuteTool"]);
    expect((server.calls[1]!.request as FinalizeToolServerConfigRequest).tools.map((t) => t.id)).toEqual(["GrokBuild:read_file"]);
    expect((server.calls[2]!.request as ExecuteToolRequest).inputJson).toBe('{"target_file":"README.md"}');
  });

  it("call --json prints the result as JSON", async () => {
    server = await statefulServer({ finalizedWith: ["GrokBuild:read_file"] });
    const { code, stdout } = await run(["call", "read_file", '{"target_file":"README.md"}', "--json", "--address", server.address]);
    expect(code).toBe(EXIT_OK);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, output: { type: "file_content", content: "# Hi" }, promptText: "1|# Hi" });
  });

  it("call on a server finalized without the tool says so", async () => {
    server = await statefulServer({ finalizedWith: ["GrokBuild:grep"] });
    const { code, stderr } = await run(["call", "read_file", "{}", "--enable", "GrokBuild:read_file", "--address", server.address]);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toBe(
      'grok-tools: The server is already finalized with: grep. A session is finalized once; restart the server to choose other tools. "read_file" is not among them.\n',
    );
  });

  it("call with --enable on a server already finalized with the tool notes it and calls", async () => {
    server = await statefulServer({ finalizedWith: ["GrokBuild:read_file"] });
    const { code, stdout, stderr } = await run(["call", "read_file", '{"target_file":"README.md"}', "-e", "GrokBuild:read_file", "--address", server.address]);
    expect(code).toBe(EXIT_OK);
    expect(stdout).toBe("1|# Hi\n");
    expect(stderr).toBe("grok-tools: the server is already finalized; --enable ignored.\n");
  });

  it("a tool error exits 1 with the code, message and suggestion", async () => {
    server = await statefulServer({ finalizedWith: ["GrokBuild:read_file"] });
    const { code, stderr } = await run(["call", "read_file", '{"target_file":"nope.md"}', "--address", server.address]);
    expect(code).toBe(EXIT_TOOL_ERROR);
    expect(stderr).toBe("Error (FILE_NOT_FOUND): File not found: nope.md\nSuggestion: Check the path.\n");
  });

  it("a tool error with --json prints the error object on stdout", async () => {
    server = await statefulServer({ finalizedWith: ["GrokBuild:read_file"] });
    const { code, stdout } = await run(["call", "read_file", '{"target_file":"x"}', "--json", "--address", server.address]);
    expect(code).toBe(EXIT_TOOL_ERROR);
    expect(JSON.parse(stdout)).toEqual({
      ok: false,
      error: { kind: "tool", code: "FILE_NOT_FOUND", message: "File not found: x", suggestion: "Check the path.", retryable: false },
      callId: "c",
    });
  });

  it("refuses input that is not a JSON object", async () => {
    expect(await run(["call", "read_file", "{target_file: x}"])).toMatchObject({
      code: EXIT_USAGE,
      stderr: expect.stringContaining("The input is not valid JSON"),
    });
    expect(await run(["call", "read_file", "[1]"])).toMatchObject({ code: EXIT_USAGE, stderr: expect.stringContaining("The input must be a JSON object") });
  });

  it("explains a connection failure and exits 2", async () => {
    const { code, stderr } = await run(["list", "--address", "127.0.0.1:1"]);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toMatch(
      /^grok-tools: Cannot reach a grok-tools server at 127\.0\.0\.1:1: nothing is listening there \(connection refused\)\.\nStart one with `grok-tools-server --listen 127\.0\.0\.1:1 --workspace DIR` \(package @grok-tools\/server\)/,
    );
    // A client-only user has no `npm start`; grpc-js's noise is gone.
    expect(stderr).not.toContain("npm start");
    expect(stderr).not.toMatch(/Resolution note: \)/);
    expect(stderr).not.toMatch(/Error: .*Error:/);
  });

  it("--json reports a connection failure as JSON on stdout", async () => {
    const { code, stdout, stderr } = await run(["list", "--json", "--address", "127.0.0.1:1"]);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toBe("");
    expect(JSON.parse(stdout)).toEqual({
      ok: false,
      error: { kind: "connection", code: "UNAVAILABLE", rpc: "ListTools", message: expect.stringContaining("Cannot reach a grok-tools server at 127.0.0.1:1") },
    });
  });

  it("--json reports bad JSON input and usage errors as JSON on stdout", async () => {
    const bad = await run(["call", "read_file", "{x", "--json"]);
    expect(bad.code).toBe(EXIT_USAGE);
    expect(bad.stderr).toBe("");
    expect(JSON.parse(bad.stdout)).toEqual({ ok: false, error: { kind: "usage", message: expect.stringMatching(/^The input is not valid JSON/) } });
    const unknown = await run(["list", "--json", "--bogus"]);
    expect(unknown.code).toBe(EXIT_USAGE);
    expect(unknown.stderr).toBe("");
    expect(JSON.parse(unknown.stdout)).toEqual({ ok: false, error: { kind: "usage", message: "unknown option '--bogus'" } });
  });

  it("--version prints the package version", async () => {
    const { code, stdout } = await run(["--version"]);
    expect(code).toBe(EXIT_OK);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("finalize --enable resolves bare ids and prints the finalized tools", async () => {
    server = await statefulServer();
    const { code, stdout } = await run(["finalize", "--enable", "read_file,Codex:shell", "--enable", "grep", "--address", server.address]);
    expect(code).toBe(EXIT_OK);
    expect(stdout).toBe("Finalized 3 tool(s): read_file, shell, grep\n");
    expect((server.calls[1]!.request as FinalizeToolServerConfigRequest).tools.map((t) => t.id)).toEqual([
      "GrokBuild:read_file",
      "Codex:shell",
      "GrokBuild:grep",
    ]);
  });

  it("finalize reports a rejected configuration and an unknown id", async () => {
    server = await statefulServer({ rejectFinalize: "tools[0].params_json: not an object" });
    expect(await run(["finalize", "--enable", "GrokBuild:grep", "--address", server.address])).toMatchObject({
      code: EXIT_USAGE,
      stderr: "grok-tools: The server refused the configuration: tools[0].params_json: not an object\n",
    });
    expect(await run(["finalize", "--enable", "nothing", "--address", server.address])).toMatchObject({
      code: EXIT_USAGE,
      stderr: 'grok-tools: No tool "nothing" on this server. Run `grok-tools list` to see the tool ids.\n',
    });
  });

  it("info prints the description and schema, and a failed RPC exits 2", async () => {
    server = await statefulServer({ finalizedWith: ["GrokBuild:read_file"] });
    const ok = await run(["info", "read_file", "--address", server.address]);
    expect(ok.code).toBe(EXIT_OK);
    expect(ok.stdout).toBe('read_file\ncontract version: current\n\nReads things.\nSecond line of read_file.\n\nInput schema:\n{\n  "type": "object"\n}\n');
    expect(await run(["info", "nope", "--address", server.address])).toMatchObject({
      code: EXIT_USAGE,
      stderr: "grok-tools: GetToolInfo failed: NOT_FOUND: Tool not found: nope\n",
    });
  });

  it("state pretty-prints the state JSON", async () => {
    server = await statefulServer();
    const { code, stdout } = await run(["state", "--address", server.address]);
    expect(code).toBe(EXIT_OK);
    expect(stdout).toBe('{\n  "params": {},\n  "state": {\n    "todo": []\n  }\n}\n');
  });

  it("refuses a malformed address or deadline with a usage error", async () => {
    expect(await run(["list", "--address", "localhost"])).toMatchObject({
      code: EXIT_USAGE,
      stderr: 'grok-tools: The server address "localhost" has no port: use host:port (for example 127.0.0.1:50051) or unix:/path/to/socket.\n',
    });
    expect(await run(["list", "--deadline-ms", "soon"])).toMatchObject({
      code: EXIT_USAGE,
      stderr: expect.stringContaining('Expected a positive integer, got "soon".'),
    });
  });

  it("--help exits 0 and an unknown command exits 2", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(EXIT_OK);
    expect(help.stdout).toContain("Usage: grok-tools [options] [command]");
    expect((await run(["frobnicate"])).code).toBe(EXIT_USAGE);
    expect((await run(["call"])).code).toBe(EXIT_USAGE);
  });
});

describe("grok-tools call --stream (live output, issue 20)", () => {
  /**
   * A fake streaming server: live chunk "hello\n", then it waits until `proceed` resolves (the test
   * saw the live text), then the authoritative result. Without the header it sends the result only.
   */
  async function liveServer(proceed: Promise<void>) {
    const P = StreamDataKind.STREAM_DATA_KIND_PROMPT_TEXT;
    return startFakeServer({
      listTools: (_call, callback) => callback(null, { tools: [info("run_terminal_cmd", true)], totalCount: 1, enabledCount: 1 }),
      executeToolStream: (call) => {
        void (async () => {
          const data = (kind: StreamDataKind, text: string, offset: number) => ({
            callId: "s",
            chunk: { $case: "data" as const, value: { kind, data: Buffer.from(text), offset } },
          });
          if (call.metadata.get(LIVE_OUTPUT_HEADER)[0] === "1") {
            call.write(data(StreamDataKind.STREAM_DATA_KIND_UNSPECIFIED, "hel", 0));
            call.write(data(StreamDataKind.STREAM_DATA_KIND_UNSPECIFIED, "lo\n", 3));
            await proceed;
          }
          call.write(data(P, "exit: 0\nhello", 0));
          call.write({ callId: "s", chunk: { $case: "finalResult", value: { promptTextSize: 13, outputJsonSize: 0 } } });
          call.end();
        })();
      },
    });
  }

  async function runLive(isTTY: boolean) {
    let stdout = "";
    let stderr = "";
    let sawLive!: () => void;
    const proceed = new Promise<void>((resolve) => (sawLive = resolve));
    server = await liveServer(proceed);
    const code = await runCli(["call", "run_terminal_cmd", '{"command":"echo hello"}', "--stream", "--address", server.address], {
      stdout: (t) => void (stdout += t),
      stderr: (t) => {
        stderr += t;
        // The result is held back until the live text is on the screen: it is shown live.
        if (stderr.includes("hello\n")) sawLive();
      },
      env: {},
      stderrIsTTY: isTTY,
    });
    return { code, stdout, stderr };
  }

  it("writes live output to stderr while the call runs and the result to stdout, without a spinner off a terminal", async () => {
    const { code, stdout, stderr } = await runLive(false);
    expect(code).toBe(EXIT_OK);
    expect(stdout).toBe("exit: 0\nhello\n");
    expect(stderr).toBe("hello\n");
    expect(server!.calls.find((c) => c.rpc === "ExecuteToolStream")!.metadata.get(LIVE_OUTPUT_HEADER)).toEqual(["1"]);
  });

  it("draws a progress line on a terminal and erases it", async () => {
    const { code, stdout, stderr } = await runLive(true);
    expect(code).toBe(EXIT_OK);
    expect(stdout).toBe("exit: 0\nhello\n");
    expect(stderr).toMatch(/^\r\x1b\[2K⠋ run_terminal_cmd running · \d+\.\ds · 0 B of live output\r\x1b\[2Khello\n/);
    // It ends erased: the last thing written clears the line.
    expect(stderr.endsWith("\r\x1b[2K")).toBe(true);
    expect(stderr.replace(/\r\x1b\[2K[^\r]*?live output/g, "").replace(/\r\x1b\[2K/g, "")).toBe("hello\n");
  });
});
