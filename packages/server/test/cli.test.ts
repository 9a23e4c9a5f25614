// The grok-tools-server command as ops run it: flags, the one listening line on stdout, JSON logs on
// stderr, an agent definition file, refusal of unsafe exposure, and a clean exit on SIGTERM.
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { credentials, type ServiceError } from "@grpc/grpc-js";
import { FinalizeToolServerConfigRequest, GrokToolsServiceClient, type GetAgentInfoResponse, type GetSystemPromptResponse } from "@grok-tools/proto";
import { cleanUp, SERVER_TEST_TIMEOUT_MS, startServer as start, tempDir } from "./run-server.js";

// Each test starts a server process: on a loaded machine its start alone can take tens of seconds.
jest.setTimeout(SERVER_TEST_TIMEOUT_MS);

const PAUSE_AFTER_LISTENING = pathToFileURL(path.resolve(import.meta.dirname, "../../../test/fixtures/pause-after-listening.mjs")).href;

afterEach(cleanUp);

describe("grok-tools-server", () => {
  it("serves an agent definition file and exits cleanly on SIGTERM", async () => {
    const dir = tempDir();
    const agentFile = path.join(dir, "reviewer.md");
    writeFileSync(
      agentFile,
      [
        "---",
        "name: reviewer",
        "description: Reviews changes.",
        "tools: [GrokBuild:read_file, GrokBuild:grep]",
        "completion_requirement:",
        "  tool: grep",
        "  reminder: Search first.",
        "---",
        "Read with ${{ tools.by_kind.read }} and search with ${{ tools.by_kind.search }}.",
        "",
      ].join("\n"),
    );
    const server = start(["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", path.join(dir, "state"), "--agent", agentFile]);
    const address = await server.listening;
    expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
    const client = new GrokToolsServiceClient(address, credentials.createInsecure());
    const info = await new Promise<GetAgentInfoResponse>((resolve, reject) =>
      client.getAgentInfo({}, (e: ServiceError | null, r) => (e ? reject(e) : resolve(r))),
    );
    expect(info).toMatchObject({ name: "reviewer", description: "Reviews changes.", completionRequirement: { tool: "grep", reminder: "Search first." } });
    const fin = await new Promise<{ success: boolean }>((resolve, reject) =>
      client.finalizeToolConfigRequest(
        FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "GrokBuild:read_file", nameOverride: "view" }, { id: "GrokBuild:grep" }] }),
        (e: ServiceError | null, r) => (e ? reject(e) : resolve(r)),
      ),
    );
    expect(fin.success).toBe(true);
    const prompt = await new Promise<GetSystemPromptResponse>((resolve, reject) =>
      client.getSystemPrompt({ variant: "" }, (e: ServiceError | null, r) => (e ? reject(e) : resolve(r))),
    );
    expect(prompt.systemPrompt).toBe("Read with view and search with grep.");
    client.close();

    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const logs = server
      .stderr()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { msg: string });
    expect(logs.map((l) => l.msg)).toEqual(expect.arrayContaining(["grok-tools-server ready", "shutting down"]));
  });

  it("listens on a unix socket and reports that address", async () => {
    const dir = tempDir();
    const socket = path.join(dir, "grok.sock");
    const server = start(["--listen", `unix:${socket}`, "--workspace", dir, "--state-dir", path.join(dir, "state"), "--log-level", "silent"]);
    expect(await server.listening).toBe(`unix:${socket}`);
  });

  it("refuses a non-loopback address without a token or TLS", async () => {
    const dir = tempDir();
    const server = start(["--listen", "0.0.0.0:0", "--workspace", dir]);
    await expect(server.listening).rejects.toThrow(/refusing to listen on 0\.0\.0\.0:0 without --auth-token-file \(or --auth-token\) or TLS/);
    expect((await server.exited).code).toBe(2);
  });

  it("listens on a non-loopback address without a token or TLS when --insecure is given", async () => {
    const dir = tempDir();
    const server = start(["--listen", "0.0.0.0:0", "--insecure", "--workspace", dir, "--state-dir", path.join(dir, "state"), "--log-level", "silent"]);
    const address = await server.listening;
    expect(address).toMatch(/^0\.0\.0\.0:\d+$/);
    // Bound on every interface: a client reaches it on loopback, with no token.
    const client = new GrokToolsServiceClient(address.replace(/^0\.0\.0\.0/, "127.0.0.1"), credentials.createInsecure());
    const state = await new Promise<{ stateJson: string }>((resolve, reject) =>
      client.getToolState({}, (e: ServiceError | null, r) => (e ? reject(e) : resolve(r))),
    );
    expect(JSON.parse(state.stateJson)).toBeDefined();
    client.close();
  });

  it("refuses an agent file it cannot use, naming the field", async () => {
    const dir = tempDir();
    const agentFile = path.join(dir, "bad.json");
    writeFileSync(agentFile, JSON.stringify({ name: 3 }));
    const server = start(["--listen", "127.0.0.1:0", "--workspace", dir, "--agent", agentFile]);
    await expect(server.listening).rejects.toThrow(/name must be a string/);
  });

  it("shuts down with code 0 when SIGTERM arrives the moment the listening line is out", async () => {
    // The instrument stops the server for 1 s right after it writes the line (as a loaded machine
    // may); the signal sent on reading the line lands in that gap. Before the fix the handlers were
    // installed after the line, so the server died of the signal ({code: null, signal: "SIGTERM"}).
    const dir = tempDir();
    const server = start(["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", path.join(dir, "state"), "--log-level", "silent"], {
      env: { ...process.env, NODE_OPTIONS: `--import=${PAUSE_AFTER_LISTENING}` },
    });
    await server.listening;
    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});
