/**
 * The launcher host: the helper process that forks launchers for the server. What it must
 * keep exact is what a direct spawn gives: the exit code or signal, a duplex socket as
 * stdout, a process group of its own, and nothing of the server's environment.
 */
import { readFile, readdir } from "node:fs/promises";
import os from "node:os";
import { spawn } from "node:child_process";
import { HOST_SCRIPT, LauncherHost, MAX_HOST_STARTS, type HostedProcess } from "./launcher-host.js";

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

async function running(pid: number): Promise<boolean> {
  try {
    return !/\) Z /.test(await readFile(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Live (non-zombie) processes whose command line contains `needle`. */
async function processesWith(needle: string): Promise<number> {
  let count = 0;
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if ((await readFile(`/proc/${name}/cmdline`, "utf8")).includes(needle) && (await running(Number(name)))) count++;
    } catch {
      // Gone.
    }
  }
  return count;
}

async function until(check: () => Promise<boolean>, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

function sh(host: LauncherHost, script: string): Promise<HostedProcess | undefined> {
  return host.spawn({ file: "/bin/sh", args: ["-c", script], cwd: os.tmpdir(), env });
}

function readAll(launch: HostedProcess): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    launch.socket.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    launch.socket.on("close", () => resolve(text));
  });
}

describe("LauncherHost", () => {
  let host: LauncherHost;
  beforeEach(() => {
    host = new LauncherHost();
  });
  afterEach(() => host.dispose());

  it("reports exit codes and signals exactly, as a direct spawn would", async () => {
    const cases: Array<[string, { code: number | null; signal: string | null }]> = [
      ["exit 3", { code: 3, signal: null }],
      ["exit 255", { code: 255, signal: null }],
      ["exit 137", { code: 137, signal: null }],
      ["kill -KILL $$", { code: null, signal: "SIGKILL" }],
      ["kill -TERM $$", { code: null, signal: "SIGTERM" }],
    ];
    for (const [script, exit] of cases) {
      const launch = await sh(host, script);
      expect(launch).toBeDefined();
      expect(await launch!.exited).toEqual(exit);
    }
  });

  it("gives the process a duplex socket as stdout and a process group it leads", async () => {
    const launch = (await sh(host, 'read -r line <&1; echo "got $line pgid=$(ps -o pgid= $$ | tr -d " ")"'))!;
    const text = readAll(launch);
    launch.socket.write("hello\n");
    expect(await text).toBe(`got hello pgid=${launch.pid}\n`);
    expect(await launch.exited).toEqual({ code: 0, signal: null });
  });

  it("fails a launch that cannot start, and keeps working", async () => {
    expect(await host.spawn({ file: "/nonexistent/program", args: [], cwd: os.tmpdir(), env })).toBeUndefined();
    expect(await host.spawn({ file: "/bin/sh", args: ["-c", "true"], cwd: "/nonexistent/dir", env })).toBeUndefined();
    const launch = await sh(host, "exit 0");
    expect(await launch!.exited).toEqual({ code: 0, signal: null });
  });

  it("answers at once, and stops trying, when the helper cannot start", async () => {
    const broken = new LauncherHost("/nonexistent/node");
    for (let start = 1; start <= MAX_HOST_STARTS; start++) {
      const asked = Date.now();
      expect(await sh(broken, "exit 0")).toBeUndefined();
      // Not the launch timeout: at once, with a margin for busy machines.
      expect(Date.now() - asked).toBeLessThan(5_000);
    }
    expect(broken.usable).toBe(false);
  });

  it("never passes the server's environment to the helper", async () => {
    process.env.GROK_TOOLS_TEST_SECRET = "do-not-leak";
    try {
      await (await sh(host, "exit 0"))!.exited;
      const environ = (await readFile(`/proc/${host.pid}/environ`, "utf8")).split("\0").filter(Boolean);
      // Node adds its IPC channel's own two variables.
      expect(environ.map((entry) => entry.split("=")[0]).sort()).toEqual(["NODE_CHANNEL_FD", "NODE_CHANNEL_SERIALIZATION_MODE", "PATH"]);
    } finally {
      delete process.env.GROK_TOOLS_TEST_SECRET;
    }
  });

  it("kills what is running when the helper dies, restarts it, and gives up after repeated deaths", async () => {
    for (let start = 1; start <= MAX_HOST_STARTS; start++) {
      const launch = (await sh(host, "sleep 1000"))!;
      expect(launch).toBeDefined();
      process.kill(host.pid!, "SIGKILL");
      expect(await launch.exited).toEqual({ code: null, signal: "SIGKILL" });
      expect(await until(async () => !(await running(launch.pid)))).toBe(true);
    }
    expect(host.usable).toBe(false);
    expect(await sh(host, "exit 0")).toBeUndefined();
  });

  it("stops, killing what it started, when its server dies in the middle of a launch", async () => {
    // A stand-in server that asks for a launch and exits before the helper's answer (and the
    // socket it carries) can be acknowledged: the case where Node emits no 'disconnect'.
    const marker = `gt-orphan-${process.pid}-${Date.now()}`;
    const server = `
      const { spawn } = require("node:child_process");
      const helper = spawn(process.execPath, ["-e", process.argv[1]], { stdio: ["ignore", "ignore", "ignore", "ipc"], env: { PATH: process.env.PATH } });
      process.stdout.write(String(helper.pid));
      // Busy, it reads nothing (so acknowledges nothing) until it exits.
      helper.send({ type: "spawn", id: 1, file: "/bin/sh", args: ["-c", "sleep 1000 # " + process.argv[2]], cwd: "/", env: { PATH: process.env.PATH } }, () => {
        const end = Date.now() + 1000;
        while (Date.now() < end);
        process.exit(0);
      });`;
    const stand = spawn(process.execPath, ["-e", server, HOST_SCRIPT, marker], { stdio: ["ignore", "pipe", "ignore"] });
    let helperPid = "";
    stand.stdout.on("data", (chunk: Buffer) => (helperPid += chunk.toString()));
    await new Promise((resolve) => stand.once("close", resolve));
    expect(Number(helperPid)).toBeGreaterThan(0);
    expect(await until(async () => (await processesWith(marker)) === 0 && !(await running(Number(helperPid))))).toBe(true);
  });

  it("kills what is running on dispose", async () => {
    const launch = (await sh(host, "sleep 1000"))!;
    host.dispose();
    expect(await launch.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(await until(async () => !(await running(launch.pid)))).toBe(true);
  });
});
