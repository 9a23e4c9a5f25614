// The grok-tools-server command as ops run it: flags, the one listening line on stdout, JSON logs on
// stderr, an agent definition file, refusal of unsafe exposure, and a clean exit on SIGTERM.
import { afterEach, describe, expect, it } from "@jest/globals";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { credentials, type ServiceError } from "@grpc/grpc-js";
import { FinalizeToolServerConfigRequest, GrokToolsServiceClient, type GetAgentInfoResponse, type GetSystemPromptResponse } from "@grok-tools/proto";

const BIN = path.resolve(import.meta.dirname, "../bin/grok-tools-server.js");
const children: ChildProcess[] = [];
const dirs: string[] = [];

function start(args: string[]): { child: ChildProcess; listening: Promise<string>; stderr: () => string } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  const listening = new Promise<string>((resolve, reject) => {
    const lines: string[] = [];
    createInterface({ input: child.stdout! }).on("line", (line) => {
      lines.push(line);
      const event = JSON.parse(line) as { event: string; address: string };
      if (event.event === "listening") resolve(event.address);
    });
    child.on("exit", (code) => reject(new Error(`exited ${code} before listening; stdout=${lines.join("\n")} stderr=${stderr}`)));
  });
  return { child, listening, stderr: () => stderr };
}

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "grok-cli-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("grok-tools-server", () => {
  it("serves an agent definition file and exits cleanly on SIGTERM", async () => {
    const dir = tempDir();
    const agentFile = path.join(dir, "reviewer.md");
    writeFileSync(
      agentFile,
      ["---", "name: reviewer", "description: Reviews changes.", "tools: [GrokBuild:read_file, GrokBuild:grep]", "completion_requirement:", "  tool: grep", "  reminder: Search first.", "---", "Read with ${{ tools.by_kind.read }} and search with ${{ tools.by_kind.search }}.", ""].join("\n"),
    );
    const server = start(["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", path.join(dir, "state"), "--agent", agentFile]);
    const address = await server.listening;
    expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
    const client = new GrokToolsServiceClient(address, credentials.createInsecure());
    const info = await new Promise<GetAgentInfoResponse>((resolve, reject) => client.getAgentInfo({}, (e: ServiceError | null, r) => (e ? reject(e) : resolve(r))));
    expect(info).toMatchObject({ name: "reviewer", description: "Reviews changes.", completionRequirement: { tool: "grep", reminder: "Search first." } });
    const fin = await new Promise<{ success: boolean }>((resolve, reject) =>
      client.finalizeToolConfigRequest(FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "GrokBuild:read_file", nameOverride: "view" }, { id: "GrokBuild:grep" }] }), (e: ServiceError | null, r) => (e ? reject(e) : resolve(r))),
    );
    expect(fin.success).toBe(true);
    const prompt = await new Promise<GetSystemPromptResponse>((resolve, reject) => client.getSystemPrompt({ variant: "" }, (e: ServiceError | null, r) => (e ? reject(e) : resolve(r))));
    expect(prompt.systemPrompt).toBe("Read with view and search with grep.");
    client.close();

    const exited = new Promise<number | null>((resolve) => server.child.on("exit", resolve));
    server.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    const logs = server.stderr().trim().split("\n").map((line) => JSON.parse(line) as { msg: string });
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
    await expect(server.listening).rejects.toThrow(/refusing to listen on 0\.0\.0\.0:0 without --auth-token or TLS/);
    expect(server.child.exitCode).toBe(2);
  });

  it("refuses an agent file it cannot use, naming the field", async () => {
    const dir = tempDir();
    const agentFile = path.join(dir, "bad.json");
    writeFileSync(agentFile, JSON.stringify({ name: 3 }));
    const server = start(["--listen", "127.0.0.1:0", "--workspace", dir, "--agent", agentFile]);
    await expect(server.listening).rejects.toThrow(/name must be a string/);
  });
});
