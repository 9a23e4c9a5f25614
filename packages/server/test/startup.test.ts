// What grok-tools-server refuses before it listens, and how it says so: bad flags (exit 2), a missing
// or non-folder workspace, an unwritable state folder, a state folder held by another server, an
// address in use (exit 1). Also: state keyed by workspace, and a stale lock after kill -9.
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { credentials, type ServiceError } from "@grpc/grpc-js";
import { GrokToolsServiceClient, FinalizeToolServerConfigRequest, type ExecuteToolResponse } from "@grok-tools/proto";
import { BIN, cleanUp, SERVER_TEST_TIMEOUT_MS, startServer, tempDir } from "./run-server.js";

// Each test starts a server process: on a loaded machine its start alone can take tens of seconds.
jest.setTimeout(SERVER_TEST_TIMEOUT_MS);

afterEach(cleanUp);

const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

/** Runs the command to its exit (it must not listen) and returns its code and output. */
async function refused(args: string[], options: Parameters<typeof startServer>[1] = {}) {
  const server = startServer(args, options);
  const exit = await server.exited;
  return { code: exit.code, stdout: server.stdout(), stderr: server.stderr() };
}

function expectCleanMessage(stderr: string) {
  expect(stderr).not.toMatch(/Resolution note: \)/);
  expect(stderr).not.toMatch(/Error: .*Error:/);
  expect(stderr).not.toMatch(/^E /m); // grpc-js's own log lines
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
}

function rpc<T>(call: (callback: (error: ServiceError | null, response: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => call((error, response) => (error ? reject(error) : resolve(response))));
}

async function writeTodo(address: string, content: string): Promise<ExecuteToolResponse> {
  const client = new GrokToolsServiceClient(address, credentials.createInsecure());
  try {
    const fin = await rpc<{ success: boolean }>((cb) =>
      client.finalizeToolConfigRequest(FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "GrokBuild:todo_write" }] }), cb),
    );
    expect(fin.success).toBe(true);
    return await rpc<ExecuteToolResponse>((cb) =>
      client.executeTool(
        { toolName: "todo_write", inputJson: JSON.stringify({ merge: false, todos: [{ id: "1", content, status: "pending" }] }) } as never,
        cb,
      ),
    );
  } finally {
    client.close();
  }
}

async function todoState(address: string): Promise<unknown> {
  const client = new GrokToolsServiceClient(address, credentials.createInsecure());
  try {
    const state = await rpc<{ stateJson: string }>((cb) => client.getToolState({}, cb));
    return (JSON.parse(state.stateJson) as { state?: Record<string, unknown> }).state?.["grok_build.Todo"];
  } finally {
    client.close();
  }
}

describe("usage errors exit 2 with a message about the flag", () => {
  it.each([
    [["--bogus"], /unknown option '--bogus'/],
    [["--fs-scope", "everywhere"], /argument 'everywhere' is invalid\. Allowed choices are workspace, any/],
    [["--listen", "nonsense"], /--listen "nonsense" is not an address \(it has no port\): use HOST:PORT/],
    [["--listen", "127.0.0.1:70000"], /port 70000 is out of range/],
    [["--tls-cert", "/nope.pem"], /--tls-cert and --tls-key go together/],
    [["--auth-token", "a", "--auth-token-file", "/x"], /--auth-token and --auth-token-file go one at a time/],
  ])("%j", async (args, message) => {
    const dir = tempDir();
    const result = await refused([...args, "--workspace", dir, "--state-dir", path.join(dir, "state")]);
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expectCleanMessage(result.stderr);
  });

  it("--listen nonsense blames the address, not TLS or the token", async () => {
    const dir = tempDir();
    const result = await refused(["--listen", "nonsense", "--workspace", dir, "--state-dir", path.join(dir, "state")]);
    expect(result.stderr).toBe(
      'grok-tools-server: error: --listen "nonsense" is not an address (it has no port): use HOST:PORT (for example 127.0.0.1:50051; port 0 picks a free port) or unix:/path/to/socket.\n',
    );
  });

  it("--version prints the version and exits 0", async () => {
    const result = await refused(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe((JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as { version: string }).version);
  });

  it("a namespace package that is not installed is named, with what to do", async () => {
    const dir = tempDir();
    const result = await refused(
      ["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", path.join(dir, "state"), "--namespace", "@acme/not-installed"],
      { cwd: dir },
    );
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stderr).toBe(
      `grok-tools-server: error: Cannot load namespace package "@acme/not-installed": it is not installed in ${dir} or a parent folder. Install it there (npm install @acme/not-installed), or pass its path.\n`,
    );
  });
});

describe("the workspace must be an existing folder", () => {
  it("refuses a workspace that does not exist", async () => {
    const dir = tempDir();
    const missing = path.join(dir, "missing");
    const result = await refused(["--listen", "127.0.0.1:0", "--workspace", missing, "--state-dir", path.join(dir, "state")]);
    expect(result).toEqual({
      code: EXIT_USAGE,
      stdout: "",
      stderr: `grok-tools-server: error: The workspace ${missing} does not exist. Create it, or pass an existing folder as --workspace.\n`,
    });
  });

  it("refuses a workspace that is a file", async () => {
    const dir = tempDir();
    const file = path.join(dir, "file.txt");
    writeFileSync(file, "x");
    const result = await refused(["--listen", "127.0.0.1:0", "--workspace", file, "--state-dir", path.join(dir, "state")]);
    expect(result).toEqual({
      code: EXIT_USAGE,
      stdout: "",
      stderr: `grok-tools-server: error: The workspace ${file} is not a folder. Pass a folder as --workspace.\n`,
    });
  });
});

describe("the state folder must be writable", () => {
  it("refuses a --state-dir this user cannot write", async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    const workspace = path.join(dir, "ws");
    const state = path.join(dir, "state");
    mkdirSync(workspace, { mode: 0o755 });
    mkdirSync(state, { mode: 0o755 });
    chmodSync(state, 0o555);
    // root writes anywhere: then the folder belongs to nobody and the server runs as root without the
    // capabilities that override file permissions. (Running it as nobody instead fails earlier when the
    // checkout itself is not readable by nobody, as in a `mktemp -d` clone.)
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(state, 65534, 65534);
    const result = await refused(
      ["--listen", "127.0.0.1:0", "--workspace", workspace, "--state-dir", state],
      asRoot ? { command: ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--", process.execPath, BIN] } : {},
    );
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `grok-tools-server: error: Cannot write the state folder ${state}: permission denied (EACCES). Tool state (todo lists, read records, logs) would not be saved; pass a folder this user can write as --state-dir.\n`,
    );
  });

  it("refuses a --state-dir under a file", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "file"), "x");
    const result = await refused(["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", path.join(dir, "file", "state")]);
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stderr).toMatch(/Cannot write the state folder .*file\/state: a part of the path is a file, not a folder \(ENOTDIR\)/);
  });
});

describe("state is keyed by workspace and locked", () => {
  it("two workspaces on one --state-dir keep separate state", async () => {
    const dir = tempDir();
    const state = path.join(dir, "state");
    for (const name of ["a", "b"]) mkdirSync(path.join(dir, name));
    const a = startServer(["--listen", "127.0.0.1:0", "--workspace", path.join(dir, "a"), "--state-dir", state, "--log-level", "silent"]);
    const b = startServer(["--listen", "127.0.0.1:0", "--workspace", path.join(dir, "b"), "--state-dir", state, "--log-level", "silent"]);
    const [addressA, addressB] = await Promise.all([a.listening, b.listening]);
    expect((await writeTodo(addressA, "only in a")).result?.$case).toBe("success");
    expect((await writeTodo(addressB, "only in b")).result?.$case).toBe("success");
    expect(await todoState(addressA)).toMatchObject({ todos: { "1": { content: "only in a" } } });
    expect(await todoState(addressB)).toMatchObject({ todos: { "1": { content: "only in b" } } });
    const folders = readdirSync(state).sort();
    expect(folders).toEqual([expect.stringMatching(/^a-[0-9a-f]{16}$/), expect.stringMatching(/^b-[0-9a-f]{16}$/)]);
    for (const folder of folders) expect(existsSync(path.join(state, folder, "default", "resources_state.json"))).toBe(true);
  });

  it("a second server on the same workspace and --state-dir refuses, naming the first", async () => {
    const dir = tempDir();
    const args = ["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", path.join(dir, "state"), "--log-level", "silent"];
    const first = startServer(args);
    await first.listening;
    const second = await refused(args);
    expect(second.code).toBe(EXIT_FAILURE);
    expect(second.stdout).toBe("");
    expect(second.stderr).toMatch(
      new RegExp(
        `^grok-tools-server: error: The state folder .*/state/grok-cli-\\w+-[0-9a-f]{16} is in use by another grok-tools-server \\(pid ${first.child.pid}, workspace ${dir}, since .*\\)\\. .*stop that server, or give this one another --state-dir\\.\\n$`,
      ),
    );
    // The first one is unharmed.
    expect(first.child.exitCode).toBeNull();
  });

  it("a lock left by kill -9 does not block the next server; a clean stop removes the lock", async () => {
    const dir = tempDir();
    const state = path.join(dir, "state");
    const args = ["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", state, "--log-level", "silent"];
    const killed = startServer(args);
    await killed.listening;
    killed.child.kill("SIGKILL");
    await killed.exited;
    const [folder] = readdirSync(state);
    expect(existsSync(path.join(state, folder!, "server.lock"))).toBe(true);
    const next = startServer(args);
    await next.listening;
    next.child.kill("SIGTERM");
    expect((await next.exited).code).toBe(0);
    expect(readdirSync(path.join(state, folder!))).not.toContain("server.lock");
  });
});

describe("listen failures", () => {
  it("an address in use gets one clear sentence and exit 1", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "a"));
    mkdirSync(path.join(dir, "b"));
    const first = startServer(["--listen", "127.0.0.1:0", "--workspace", path.join(dir, "a"), "--state-dir", path.join(dir, "state"), "--log-level", "silent"]);
    const address = await first.listening;
    const second = await refused(["--listen", address, "--workspace", path.join(dir, "b"), "--state-dir", path.join(dir, "state")]);
    expect(second).toEqual({
      code: EXIT_FAILURE,
      stdout: "",
      stderr: `grok-tools-server: error: Cannot listen on ${address}: the address is already in use, by another grok-tools-server or another program; stop it or choose another --listen (port 0 picks a free port).\n`,
    });
  });

  it("a unix socket in a folder that does not exist", async () => {
    const dir = tempDir();
    const socket = path.join(dir, "missing", "s.sock");
    const result = await refused(["--listen", `unix:${socket}`, "--workspace", dir, "--state-dir", path.join(dir, "state"), "--log-level", "silent"]);
    expect(result.code).toBe(EXIT_FAILURE);
    expect(result.stderr).toBe(`grok-tools-server: error: Cannot listen on unix:${socket}: the socket's folder does not exist.\n`);
  });
});
