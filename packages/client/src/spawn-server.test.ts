import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { findServerCommand, spawnServer, SERVER_COMMAND } from "./spawn-server.js";

const FAKE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures", "fake-grok-tools-server.mjs");
const PAUSE_AFTER_LISTENING = pathToFileURL(
  path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "test", "fixtures", "pause-after-listening.mjs"),
).href;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "gtc-spawn-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("findServerCommand", () => {
  it("finds node_modules/.bin/grok-tools-server in a parent folder", async () => {
    const bin = path.join(dir, "node_modules", ".bin");
    await mkdir(bin, { recursive: true });
    await writeFile(path.join(bin, SERVER_COMMAND), "#!/bin/sh\n");
    const nested = path.join(dir, "a", "b");
    await mkdir(nested, { recursive: true });
    expect(findServerCommand(nested)).toBe(path.join(bin, SERVER_COMMAND));
  });

  it("falls back to the bare name for a PATH lookup", () => {
    expect(findServerCommand("/")).toBe(SERVER_COMMAND);
  });
});

describe("spawnServer", () => {
  it("passes --listen 127.0.0.1:0, --workspace, --state-dir, args and the token (on stdin), and returns the reported address", async () => {
    let stderr = "";
    const server = await spawnServer({
      command: FAKE,
      workspace: "/ws",
      stateDir: "/state",
      args: ["--log-level", "debug"],
      authToken: "s3cr3t-value",
      env: { ...process.env, FAKE_MODE: "ok" },
      onStderr: (text) => void (stderr += text),
    });
    expect(server.address).toBe("127.0.0.1:45678");
    expect(server.client.address).toBe("127.0.0.1:45678");
    const exit = await server.close();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.process.spawnargs.slice(2)).toEqual([
      "--listen",
      "127.0.0.1:0",
      "--workspace",
      "/ws",
      "--state-dir",
      "/state",
      "--auth-token-file",
      "-",
      "--log-level",
      "debug",
    ]);
    expect(server.process.spawnargs.join(" ")).not.toContain("s3cr3t-value");
    expect(stderr).toBe('{"token":"s3cr3t-value","envToken":null}\n');
  });

  it("close() ends a server with code 0 even when SIGTERM reaches it right as it prints the listening line", async () => {
    // The instrument stops the child for 1 s just after the line, as a loaded machine may: a
    // server whose SIGTERM handler came after the line died of the signal ({code: null, signal: "SIGTERM"}).
    const server = await spawnServer({
      command: FAKE,
      workspace: "/ws",
      env: { ...process.env, FAKE_MODE: "ok", NODE_OPTIONS: `--import=${PAUSE_AFTER_LISTENING}` },
    });
    expect(await server.close()).toEqual({ code: 0, signal: null });
  });

  it("creates a unix socket path in a temp folder and removes the folder on close", async () => {
    const server = await spawnServer({ command: FAKE, workspace: "/ws", listen: "unix", env: { ...process.env, FAKE_MODE: "ok" } });
    expect(server.address).toMatch(/^unix:\/.*\/grok-tools\.sock$/);
    const socketDir = path.dirname(server.address.slice("unix:".length));
    expect(existsSync(socketDir)).toBe(true);
    expect(Buffer.byteLength(server.address) - "unix:".length).toBeLessThanOrEqual(107);
    await server.close();
    expect(existsSync(socketDir)).toBe(false);
  });

  it("runs a command that is not a .js file directly", async () => {
    const script = path.join(dir, "fake-server");
    await writeFile(script, `#!/bin/sh\nexec "${process.execPath}" "${FAKE}" "$@"\n`);
    await chmod(script, 0o755);
    const server = await spawnServer({ command: script, workspace: "/ws", env: { ...process.env, FAKE_MODE: "ok" } });
    expect(server.address).toBe("127.0.0.1:45678");
    await server.close();
  });

  it("fails with the server's stderr when it exits before listening", async () => {
    await expect(spawnServer({ command: FAKE, workspace: "/nope", env: { ...process.env, FAKE_MODE: "crash" } })).rejects.toThrow(
      /exited \(code 3\) before it was listening\.\nserver stderr:\n\{"level":"fatal","msg":"workspace does not exist"\}/,
    );
  });

  it("fails after the startup timeout with the server's stderr", async () => {
    const error = (await spawnServer({ command: FAKE, workspace: "/ws", startupTimeoutMs: 3_000, env: { ...process.env, FAKE_MODE: "silent" } }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(/did not report \{"event":"listening"\} within 3000 ms\.\nserver stderr:\n.*still loading/);
  });

  it("fails clearly when the command does not exist", async () => {
    await expect(spawnServer({ command: path.join(dir, "missing-server"), workspace: "/ws" })).rejects.toThrow(
      /Cannot start .*missing-server: spawn .* ENOENT/,
    );
  });
});
