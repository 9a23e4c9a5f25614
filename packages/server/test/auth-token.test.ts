// The server's bearer token: read from a file or stdin (--auth-token-file), from --auth-token or
// from GROK_TOOLS_AUTH_TOKEN, and in every case absent from what other processes can read of the
// server once it listens (/proc/PID/cmdline, what `ps -eo args` shows, and /proc/PID/environ).
import { afterEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { credentials, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient, type ExecuteToolResponse } from "@grok-tools/proto";
import { cleanUp, startServer, tempDir } from "./run-server.js";

afterEach(cleanUp);

const TOKEN = "tok-7f3c9a1e-secret";

function baseArgs(dir: string): string[] {
  return ["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", path.join(dir, "state"), "--log-level", "silent"];
}

/** The status of a ListTools call with this authorization header (or none). */
async function listToolsStatus(address: string, token?: string): Promise<number> {
  const client = new GrokToolsServiceClient(address, credentials.createInsecure());
  const metadata = new Metadata();
  if (token !== undefined) metadata.set("authorization", `Bearer ${token}`);
  try {
    return await new Promise<number>((resolve) =>
      client.listTools({ includeDisabled: false, includeSchemas: false } as never, metadata, (error: ServiceError | null) =>
        resolve(error ? error.code : status.OK),
      ),
    );
  } finally {
    client.close();
  }
}

/** Runs a shell command through run_terminal_cmd and returns the reply's text. */
async function runCommand(address: string, token: string, command: string): Promise<string> {
  const client = new GrokToolsServiceClient(address, credentials.createInsecure());
  const metadata = new Metadata();
  metadata.set("authorization", `Bearer ${token}`);
  const call = <T>(invoke: (callback: (error: ServiceError | null, response: T) => void) => void) =>
    new Promise<T>((resolve, reject) => invoke((error, response) => (error ? reject(error) : resolve(response))));
  try {
    const fin = await call<{ success: boolean; message: string }>((cb) =>
      client.finalizeToolConfigRequest(
        FinalizeToolServerConfigRequest.fromPartial({
          tools: [{ id: "GrokBuild:run_terminal_cmd", paramsJson: JSON.stringify({ enabled_background: false }) }],
        }),
        metadata,
        cb,
      ),
    );
    expect(fin).toMatchObject({ success: true });
    const reply = await call<ExecuteToolResponse>((cb) =>
      client.executeTool(
        ExecuteToolRequest.fromPartial({ toolName: "run_terminal_cmd", inputJson: JSON.stringify({ command, description: "print the environment" }) }),
        metadata,
        cb,
      ),
    );
    return JSON.stringify(reply);
  } finally {
    client.close();
  }
}

/** What another process of this user can read about the server. */
function visible(pid: number): { cmdline: string; environ: string; ps: string } {
  return {
    cmdline: readFileSync(`/proc/${pid}/cmdline`, "utf8"),
    environ: readFileSync(`/proc/${pid}/environ`, "utf8"),
    ps: execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }),
  };
}

function expectHidden(pid: number) {
  const seen = visible(pid);
  expect(seen.cmdline).not.toContain(TOKEN);
  expect(seen.environ).not.toContain(TOKEN);
  expect(seen.ps).not.toContain(TOKEN);
  return seen;
}

describe("--auth-token-file", () => {
  it("reads the token from a file; calls need it; it is nowhere in the server's /proc", async () => {
    const dir = tempDir();
    const file = path.join(dir, "token");
    writeFileSync(file, `${TOKEN}\n`, { mode: 0o600 });
    const server = startServer([...baseArgs(dir), "--auth-token-file", file]);
    const address = await server.listening;
    expect(await listToolsStatus(address)).toBe(status.UNAUTHENTICATED);
    expect(await listToolsStatus(address, "wrong")).toBe(status.UNAUTHENTICATED);
    expect(await listToolsStatus(address, TOKEN)).toBe(status.OK);
    expectHidden(server.child.pid!);
  });

  it("reads the token from stdin with '-'", async () => {
    const dir = tempDir();
    const server = startServer([...baseArgs(dir), "--auth-token-file", "-"], { stdin: `${TOKEN}\n` });
    const address = await server.listening;
    expect(await listToolsStatus(address, TOKEN)).toBe(status.OK);
    expectHidden(server.child.pid!);
  });

  it("refuses an empty or missing token file with exit 2", async () => {
    const dir = tempDir();
    const empty = path.join(dir, "empty");
    writeFileSync(empty, "\n");
    const a = startServer([...baseArgs(dir), "--auth-token-file", empty]);
    expect((await a.exited).code).toBe(2);
    expect(a.stderr()).toBe(`grok-tools-server: error: the token file ${empty} is empty: the token must be at least one character.\n`);
    const b = startServer([...baseArgs(dir), "--auth-token-file", path.join(dir, "missing")]);
    expect((await b.exited).code).toBe(2);
    expect(b.stderr()).toMatch(/^grok-tools-server: error: Cannot read the token file .*missing: no such file or directory/);
  });
});

describe("--auth-token and GROK_TOOLS_AUTH_TOKEN", () => {
  it("--auth-token SECRET is masked in the server's argv once it listens (ps shows stars)", async () => {
    const dir = tempDir();
    const server = startServer([...baseArgs(dir), "--auth-token", TOKEN]);
    const address = await server.listening;
    expect(await listToolsStatus(address, TOKEN)).toBe(status.OK);
    const seen = expectHidden(server.child.pid!);
    expect(seen.cmdline.split("\0")).toEqual(expect.arrayContaining(["--auth-token", "*".repeat(TOKEN.length)]));
  });

  it("--auth-token=SECRET too", async () => {
    const dir = tempDir();
    const server = startServer([...baseArgs(dir), `--auth-token=${TOKEN}`]);
    await server.listening;
    expect(expectHidden(server.child.pid!).cmdline.split("\0")).toContain(`--auth-token=${"*".repeat(TOKEN.length)}`);
  });

  it("GROK_TOOLS_AUTH_TOKEN is masked in /proc/PID/environ and not inherited by commands", async () => {
    const dir = tempDir();
    const server = startServer(baseArgs(dir), { env: { ...process.env, GROK_TOOLS_AUTH_TOKEN: TOKEN } });
    const address = await server.listening;
    expect(await listToolsStatus(address, TOKEN)).toBe(status.OK);
    const seen = expectHidden(server.child.pid!);
    expect(seen.environ.split("\0")).toContain(`GROK_TOOLS_AUTH_TOKEN=${"*".repeat(TOKEN.length)}`);
    // What a command run by a tool gets: its environment, and the server's /proc entries if it can see them.
    const pid = server.child.pid!;
    const output = await runCommand(
      address,
      TOKEN,
      `echo INHERITED=$(env | grep -c '^GROK_TOOLS_AUTH_TOKEN='); env; cat /proc/${pid}/environ /proc/${pid}/cmdline 2>/dev/null | tr '\\0' '\\n'; echo END`,
    );
    expect(output).toContain("PATH=");
    expect(output).toContain("END");
    expect(output).not.toContain(TOKEN);
    expect(output).toContain("INHERITED=0");
  });
});
