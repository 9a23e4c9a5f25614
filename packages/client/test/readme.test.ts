// The README's recipes, run as written (the commands are read from README.md, so the two cannot drift):
// `npm start` and the two `npx grok-tools` commands beside it, the "Run the server in your project"
// commands in a project that has @grok-tools/server installed, `exec grok-tools-server` in a
// package.json script, `npx grok-tools-server`, and the ten-line client (twice: once per server, as
// the README says). Each start command is stopped with SIGTERM, as a supervisor does, and must leave
// no server behind. Not run here: `npm ci` and `npm test` (this test is part of them), `npm install
// @grok-tools/server` (replaced by a link to this checkout: nothing is downloaded), and the
// "Add a namespace" example (packages/server/test/namespaces.test.ts runs it).
// Addresses: the recipes use the default 127.0.0.1:50051; here GROK_TOOLS_LISTEN=127.0.0.1:0 and
// GROK_TOOLS_ADDRESS point them at a free port instead, so parallel runs on one machine do not collide.
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const README = readFileSync(path.join(ROOT, "README.md"), "utf8");
/** Generous: `npm start` builds the server with Nx first, and the machine is shared. */
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;
// Every test starts a server through npm, npx or its bin and waits for its listening line.
jest.setTimeout(START_TIMEOUT_MS);

/** The fenced code blocks of the README section under `## heading`. */
function blocks(heading: string, lang: string): string[] {
  const start = README.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`README has no section "## ${heading}"`);
  const end = README.indexOf("\n## ", start + 1);
  const section = README.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
}

/** The command lines of a sh block, without `# comments`. */
function commands(block: string): string[] {
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "");
}

function one(lines: string[], prefix: string): string {
  const found = lines.filter((line) => line.startsWith(prefix));
  if (found.length !== 1) throw new Error(`expected one README command starting with "${prefix}", found ${JSON.stringify(found)}`);
  return found[0]!;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "grok-readme-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Started {
  child: ChildProcess;
  address: Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
}

/**
 * Runs a README start command as a shell runs a foreground command (its words as argv, no `sh -c`
 * in between, which would receive the signal instead) and waits for the listening line.
 */
function startCommand(line: string, cwd: string, env: NodeJS.ProcessEnv): Started {
  if (/["'$`\\|&;<>*?]/.test(line)) throw new Error(`not a plain command line: ${line}`);
  const [file, ...args] = line.split(/\s+/);
  const child = spawn(file!, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const address = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (text) => {
      output += `${text}\n`;
      const match = /^\{"event":"listening","address":"([^"]+)"\}$/.exec(text);
      if (match) resolve(match[1]!);
    });
    void exited.then(({ code, signal }) => reject(new Error(`"${line}" exited (${signal ?? code}) before listening:\n${output}`)));
  });
  address.catch(() => undefined);
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return { child, address, exited, output: () => output };
}

/** The pid of the server holding the workspace's state folder under `stateHome` (from its lock). */
function serverPid(stateHome: string): number {
  const root = path.join(stateHome, "grok-tools");
  const folders = readdirSync(root).filter((name) => existsSync(path.join(root, name, "server.lock")));
  expect(folders).toHaveLength(1);
  const pid = (JSON.parse(readFileSync(path.join(root, folders[0]!, "server.lock"), "utf8")) as { pid: number }).pid;
  cleanups.push(() => {
    if (alive(pid)) process.kill(pid, "SIGKILL");
  });
  return pid;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once `pid` is gone, or rejects after `timeoutMs`. */
async function gone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still runs ${timeoutMs} ms after SIGTERM`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function run(line: string, cwd: string, env: NodeJS.ProcessEnv) {
  return spawnSync("sh", ["-c", line], { cwd, env, encoding: "utf8", timeout: 60_000 });
}

/** A project folder with @grok-tools/server (and the client) installed as npm links them: symlinks to this checkout. */
function projectWithServer(): string {
  const app = path.join(tempDir(), "app");
  mkdirSync(path.join(app, "node_modules", "@grok-tools"), { recursive: true });
  mkdirSync(path.join(app, "node_modules", ".bin"));
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  for (const pkg of ["server", "client"]) symlinkSync(path.join(ROOT, "packages", pkg), path.join(app, "node_modules", "@grok-tools", pkg));
  symlinkSync("../@grok-tools/server/bin/grok-tools-server.js", path.join(app, "node_modules", ".bin", "grok-tools-server"));
  symlinkSync("../@grok-tools/client/bin/grok-tools.js", path.join(app, "node_modules", ".bin", "grok-tools"));
  return app;
}

/**
 * The recipes' environment. NX_SKIP_NX_CACHE: `npm start` runs an Nx build while other suites run servers from the
 * same dist/ folders; a cache hit would make Nx restore those folders (delete, then rewrite them) under their feet,
 * whereas a real build of up-to-date sources (tsc -b) leaves every file in place.
 */
function environment(stateHome: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    XDG_STATE_HOME: stateHome,
    GROK_TOOLS_LISTEN: "127.0.0.1:0",
    NX_SKIP_NX_CACHE: "true",
    npm_config_update_notifier: "false",
    ...extra,
  };
}

/** The ten-line client, compiled as a user's TypeScript would be, in a folder that can import @grok-tools/client. */
function tenLineClient(): string {
  const [source] = blocks("A client in ten lines", "ts");
  const dir = tempDir();
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  const file = path.join(dir, "client.mjs");
  writeFileSync(file, ts.transpileModule(source!, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
  return file;
}

describe("README: Use it", () => {
  it(
    "npm start serves the current folder; the grok-tools commands and the ten-line client work against it; SIGTERM stops it",
    async () => {
      const [setup, secondTerminal] = blocks("Use it", "sh");
      const stateHome = tempDir();
      const server = startCommand(one(commands(setup!), "npm start"), ROOT, environment(stateHome));
      const address = await server.address;
      const pid = serverPid(stateHome);
      const env = environment(stateHome, { GROK_TOOLS_ADDRESS: address });

      const [list, call] = commands(secondTerminal!);
      const listed = run(list!, ROOT, env);
      expect(listed.stderr).toBe("");
      expect(listed.status).toBe(0);
      expect(listed.stdout).toContain("GrokBuild:read_file");
      const called = run(call!, ROOT, env);
      expect(called.status).toBe(0);
      expect(called.stdout).toContain("# grok-tools-ts");

      // The server was finalized by the call above: the ten-line client's finalize is refused, as the README says.
      const client = tenLineClient();
      const again = spawnSync(process.execPath, [client], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 });
      expect(again.status).not.toBe(0);
      expect(again.stderr).toContain("FAILED_PRECONDITION");

      server.child.kill("SIGTERM");
      expect(await server.exited).toEqual({ code: 0, signal: null });
      await gone(pid, STOP_TIMEOUT_MS);
    },
    START_TIMEOUT_MS + 60_000,
  );
});

describe("README: Run the server in your project", () => {
  it("the commands as written: --help, then the server; SIGTERM stops it; the ten-line client runs once", async () => {
    const lines = commands(blocks("Run the server in your project", "sh")[0]!);
    expect(lines[0]).toBe("npm install @grok-tools/server");
    const app = projectWithServer();
    const stateHome = tempDir();

    const help = run(one(lines, "./node_modules/.bin/grok-tools-server --help"), app, environment(stateHome));
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: grok-tools-server [options]");
    expect(help.stdout).toContain("--auth-token-file <path>");

    const server = startCommand(one(lines, "./node_modules/.bin/grok-tools-server --workspace"), app, environment(stateHome));
    const address = await server.address;
    const pid = serverPid(stateHome);

    writeFileSync(path.join(app, "README.md"), "# my project\nsecond line\n");
    const client = tenLineClient();
    const env = environment(stateHome, { GROK_TOOLS_ADDRESS: address });
    const first = spawnSync(process.execPath, [client], { env, encoding: "utf8", timeout: 60_000 });
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout).toContain("# my project");
    const second = spawnSync(process.execPath, [client], { env, encoding: "utf8", timeout: 60_000 });
    expect(second.status).not.toBe(0);
    expect(second.stderr).toContain("FAILED_PRECONDITION");

    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await gone(pid, STOP_TIMEOUT_MS);
  });

  it("`exec grok-tools-server ...` in a package.json script: SIGTERM to npm stops the server", async () => {
    expect(README).toContain("`exec grok-tools-server ...` in a package.json\nscript");
    const app = projectWithServer();
    writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, scripts: { start: "exec grok-tools-server --workspace ." } }));
    const stateHome = tempDir();
    const server = startCommand("npm start", app, environment(stateHome));
    await server.address;
    const pid = serverPid(stateHome);
    server.child.kill("SIGTERM");
    await server.exited;
    await gone(pid, STOP_TIMEOUT_MS);
  });

  it("`npx grok-tools-server`: the server stops by itself when npx is stopped", async () => {
    expect(README).toContain("the server notices that npx is\ngone and stops within a second");
    const app = projectWithServer();
    const stateHome = tempDir();
    const server = startCommand("npx --no-install grok-tools-server --workspace .", app, environment(stateHome));
    await server.address;
    const pid = serverPid(stateHome);
    server.child.kill("SIGTERM");
    await server.exited;
    await gone(pid, STOP_TIMEOUT_MS);
  });
});
