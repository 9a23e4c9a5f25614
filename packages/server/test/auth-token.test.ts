// The server's bearer token: read from a file or stdin (--auth-token-file), from --auth-token or
// from GROK_TOOLS_AUTH_TOKEN, and in every case absent from what other processes can read of the
// server and of every process it started once it listens (/proc/PID/cmdline, what `ps` shows, and
// /proc/PID/environ). Only the spawned server's own process tree is looked at: other processes of
// the machine (another test's server with a token on its command line) are none of this test's business.
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { credentials, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient, type ExecuteToolResponse } from "@grok-tools/proto";
import { cleanUp, SERVER_TEST_TIMEOUT_MS, startServer, tempDir } from "./run-server.js";

// Each test starts a server process: on a loaded machine its start alone can take tens of seconds.
jest.setTimeout(SERVER_TEST_TIMEOUT_MS);

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

/** `/proc/PID/FILE`, or "" when the process has gone in the meantime. */
function procText(pid: number, file: "cmdline" | "environ"): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return "";
  }
}

/**
 * `root` and every process below it, level by level with `ps --ppid` (this kernel may lack
 * /proc/PID/task/TID/children). A process that daemonized away from the tree is not followed.
 */
function processTree(root: number): number[] {
  const tree = [root];
  let level = [root];
  while (level.length > 0) {
    let out = "";
    try {
      out = execFileSync("ps", ["-o", "pid=", "--ppid", level.join(",")], { encoding: "utf8" });
    } catch {
      // ps exits 1 when no process has one of these parents.
    }
    level = out
      .split("\n")
      .map((line) => Number(line.trim()))
      .filter((pid) => Number.isInteger(pid) && pid > 0 && !tree.includes(pid));
    tree.push(...level);
  }
  return tree;
}

/** What another process of this user can read about the server and the processes it started. */
function visible(pid: number): { cmdline: string; environ: string; ps: string; tree: Array<{ pid: number; cmdline: string; environ: string }> } {
  const tree = processTree(pid).map((p) => ({ pid: p, cmdline: procText(p, "cmdline"), environ: procText(p, "environ") }));
  let ps = "";
  try {
    ps = execFileSync("ps", ["-o", "args=", "-p", tree.map((p) => p.pid).join(",")], { encoding: "utf8" });
  } catch {
    // Every one of them exited between the two looks.
  }
  return { cmdline: tree[0]!.cmdline, environ: tree[0]!.environ, ps, tree };
}

function expectHidden(pid: number) {
  const seen = visible(pid);
  // The server itself must have been readable, or the checks below would pass on nothing.
  expect(seen.cmdline).not.toBe("");
  expect(seen.environ).toContain("PATH=");
  for (const p of seen.tree) {
    expect({ pid: p.pid, cmdline: p.cmdline.includes(TOKEN) }).toEqual({ pid: p.pid, cmdline: false });
    expect({ pid: p.pid, environ: p.environ.includes(TOKEN) }).toEqual({ pid: p.pid, environ: false });
  }
  expect(seen.ps).not.toContain(TOKEN);
  return seen;
}

async function eventually<T>(probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined || Date.now() > until) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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

  it("a command that runs shows the token nowhere: not in its argv or environment, nor any process the server started", async () => {
    const dir = tempDir();
    const server = startServer(baseArgs(dir), { env: { ...process.env, GROK_TOOLS_AUTH_TOKEN: TOKEN } });
    const address = await server.listening;
    const pid = server.child.pid!;
    const marker = `waiting-${process.pid}-${Date.now()}`;
    const go = path.join(dir, "go");
    // The command waits for a file, so the test looks at it while it runs, without a sleep of its own.
    const pending = runCommand(address, TOKEN, `: ${marker}; while [ ! -e ${go} ]; do sleep 0.05; done; echo END`);
    pending.catch(() => undefined);
    try {
      const command = await eventually(() => visible(pid).tree.find((p) => p.cmdline.includes(marker)), 60_000);
      expect(command).toBeDefined();
      // Its environment was readable, so the check below looked at something.
      expect(command!.environ).toContain("PATH=");
      expectHidden(pid);
    } finally {
      // Let the command end even when a check failed, so that no process outlives the test.
      writeFileSync(go, "");
      await pending.catch(() => undefined);
    }
    expect(await pending).toContain("END");
  });
});
