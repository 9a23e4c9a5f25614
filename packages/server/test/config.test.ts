// Settings from flags, GROK_TOOLS_* variables, a --config file (JSON or YAML) and defaults, in that
// order of precedence, as the real command resolves them (--print-config), plus the generic machinery
// on a flag table it has never seen (a flag another issue adds later gets its variable and key).
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { parse as parseYaml } from "yaml";
import { credentials, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { GrokToolsServiceClient } from "@grok-tools/proto";
import { ConfigError, applyEnvAndFile, envName } from "../src/config/flag-config.js";
import { cleanUp, startServer, tempDir } from "./run-server.js";

// Each case starts real server processes; on a loaded machine one start can take several seconds.
jest.setTimeout(120_000);

afterEach(cleanUp);

/** The environment without any GROK_TOOLS_* variable of the machine running the tests. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("GROK_TOOLS_")));
  return { ...env, ...extra };
}

async function printConfig(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; settings: Record<string, unknown>; text: string; stderr: string }> {
  const server = startServer([...args, "--print-config"], { env: cleanEnv(env) });
  const { code } = await server.exited;
  const text = server.stdout();
  return { code, settings: code === 0 ? (parseYaml(text) as Record<string, unknown>) : {}, text, stderr: server.stderr() };
}

describe("--print-config and precedence (flags > env > file > defaults)", () => {
  it("takes each setting from the highest source that has it, and says which", async () => {
    const dir = tempDir();
    const file = path.join(dir, "server.yaml");
    writeFileSync(file, ["listen: 127.0.0.1:7001", "fs-scope: any", "gitignore: edits", "log-level: debug", "namespace: [ns-a, ns-b]", ""].join("\n"));
    const { code, settings, text } = await printConfig(["--config", file, "--log-level", "warn"], {
      GROK_TOOLS_LISTEN: "127.0.0.1:7002",
      GROK_TOOLS_GITIGNORE: "all",
    });
    expect(code).toBe(0);
    expect(settings).toMatchObject({
      listen: "127.0.0.1:7002", // env beats file
      gitignore: "all", // env beats file
      "log-level": "warn", // flag beats file
      "fs-scope": "any", // file beats default
      namespace: ["ns-a", "ns-b"],
      insecure: false, // default
      "state-dir": null,
    });
    expect(text).toMatch(/^listen: "127\.0\.0\.1:7002" {2}# env GROK_TOOLS_LISTEN$/m);
    expect(text).toMatch(/^log-level: "warn" {2}# flag --log-level$/m);
    expect(text).toMatch(/^fs-scope: "any" {2}# config file$/m);
    expect(text).toMatch(/^insecure: false {2}# default$/m);
  });

  it("reads JSON files, and the file path from GROK_TOOLS_CONFIG", async () => {
    const dir = tempDir();
    const file = path.join(dir, "server.json");
    writeFileSync(file, JSON.stringify({ listen: "127.0.0.1:7003", "allow-path": ["/opt/a", "/opt/b"], insecure: true }));
    const { code, settings } = await printConfig([], { GROK_TOOLS_CONFIG: file });
    expect(code).toBe(0);
    expect(settings).toMatchObject({ config: file, listen: "127.0.0.1:7003", "allow-path": ["/opt/a", "/opt/b"], insecure: true });
  });

  it("masks secrets from every source", async () => {
    const dir = tempDir();
    const file = path.join(dir, "server.yaml");
    writeFileSync(file, "auth-token: file-secret-123\n");
    const fromFile = await printConfig(["--config", file]);
    expect(fromFile.settings["auth-token"]).toBe("***");
    expect(fromFile.text).not.toContain("file-secret-123");
    const fromEnv = await printConfig([], { GROK_TOOLS_AUTH_TOKEN: "env-secret-456" });
    expect(fromEnv.text).toMatch(/^auth-token: "\*\*\*" {2}# env GROK_TOOLS_AUTH_TOKEN$/m);
    expect(fromEnv.text).not.toContain("env-secret-456");
    const fromFlag = await printConfig(["--auth-token", "flag-secret-789"]);
    expect(fromFlag.text).not.toContain("flag-secret-789");
  });

  it("keeps GROK_TOOLS_LISTEN working for a real start", async () => {
    const dir = tempDir();
    const server = startServer(["--workspace", dir, "--state-dir", path.join(dir, "state"), "--log-level", "silent"], {
      env: cleanEnv({ GROK_TOOLS_LISTEN: `unix:${path.join(dir, "env.sock")}` }),
    });
    expect(await server.listening).toBe(`unix:${path.join(dir, "env.sock")}`);
  });

  it("a config-file token is required on calls like a flag's", async () => {
    const dir = tempDir();
    const file = path.join(dir, "server.yaml");
    writeFileSync(file, `listen: 0.0.0.0:0\nworkspace: ${dir}\nstate-dir: ${path.join(dir, "state")}\nauth-token: tok-from-file\nlog-level: silent\n`);
    // A non-loopback address is accepted because the file gives a token.
    const server = startServer(["--config", file], { env: cleanEnv() });
    const address = await server.listening;
    expect(address).toMatch(/^0\.0\.0\.0:\d+$/);
    const client = new GrokToolsServiceClient(address.replace("0.0.0.0", "127.0.0.1"), credentials.createInsecure());
    const statusWith = (token?: string) =>
      new Promise<number>((resolve) => {
        const md = new Metadata();
        if (token) md.set("authorization", `Bearer ${token}`);
        client.listTools({ includeDisabled: false, includeSchemas: false } as never, md, (error: ServiceError | null) =>
          resolve(error ? error.code : status.OK),
        );
      });
    expect(await statusWith()).toBe(status.UNAUTHENTICATED);
    expect(await statusWith("tok-from-file")).toBe(status.OK);
    client.close();
  });
});

describe("refusals name what is wrong (exit 2)", () => {
  it.each([
    ["an unknown key", "listn: 127.0.0.1:1\n", /--config .*server\.yaml: unknown key "listn"\. Known keys: listen, /],
    ["a camelCase key, with the right name", "stateDir: /tmp/x\n", /unknown key "stateDir" \(did you mean "state-dir"\?\)/],
    ["--config inside a file", "config: other.yaml\n", /unknown key "config"/],
    ["a bad choice", "fs-scope: everywhere\n", /key "fs-scope": "everywhere" is not usable: Allowed choices are workspace, any/],
    ["a list for a single value", "listen: [a, b]\n", /key "listen": expected one value, got a list/],
    ["a non-boolean switch", "insecure: maybe\n", /key "insecure": expected true or false/],
    ["a file that is not a mapping", "- listen\n", /must hold a mapping of flag names to values/],
    ["YAML that does not parse", "listen: [\n", /is not valid YAML/],
  ])("%s", async (_what, content, message) => {
    const dir = tempDir();
    const file = path.join(dir, "server.yaml");
    writeFileSync(file, content);
    const result = await printConfig(["--config", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("a missing file, and bad variables", async () => {
    const missing = await printConfig(["--config", "/nonexistent/grok.yaml"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--config \/nonexistent\/grok\.yaml: no such file or directory/);
    const choice = await printConfig([], { GROK_TOOLS_FS_SCOPE: "everywhere" });
    expect(choice.code).toBe(2);
    expect(choice.stderr).toMatch(/GROK_TOOLS_FS_SCOPE: "everywhere" is not usable: Allowed choices are workspace, any/);
    const bool = await printConfig([], { GROK_TOOLS_INSECURE: "maybe" });
    expect(bool.stderr).toMatch(/GROK_TOOLS_INSECURE="maybe": use true or false/);
  });

  it("unknown GROK_TOOLS_* variables are left alone (test switches share the prefix)", async () => {
    const result = await printConfig([], { GROK_TOOLS_REQUIRE_SOMETHING: "1" });
    expect(result.code).toBe(0);
  });
});

describe("generic over the flag table", () => {
  /** A table with flags this module was never told about, the way another issue would add them. */
  function program(): Command {
    return new Command()
      .exitOverride()
      .option(
        "--max-sessions <n>",
        "a number",
        (v) => {
          const n = Number(v);
          if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("not a positive integer");
          return n;
        },
        100,
      )
      .option("--tags <tag...>", "a list")
      .option("--no-color", "a negatable switch")
      .addOption(new Option("--mode <m>").choices(["a", "b"]));
  }

  it("every flag gets GROK_TOOLS_<FLAG> and a file key, parsed by the flag's own parser", () => {
    const p = program();
    p.parse(["--mode", "b"], { from: "user" });
    const settings = applyEnvAndFile(p, {
      env: { GROK_TOOLS_MAX_SESSIONS: "7", GROK_TOOLS_COLOR: "false", GROK_TOOLS_MODE: "a" },
      file: { path: "f.yaml", values: { "max-sessions": 3, tags: ["x", "y"] } },
    });
    expect(p.opts()).toEqual({ maxSessions: 7, tags: ["x", "y"], color: false, mode: "b" });
    expect(settings.map((s) => [s.key, s.env, s.source])).toEqual([
      ["max-sessions", "GROK_TOOLS_MAX_SESSIONS", "env"],
      ["tags", "GROK_TOOLS_TAGS", "file"],
      ["color", "GROK_TOOLS_COLOR", "env"],
      ["mode", "GROK_TOOLS_MODE", "flag"],
    ]);
    expect(envName("tls-client-ca")).toBe("GROK_TOOLS_TLS_CLIENT_CA");
  });

  it("lists from a variable are comma-separated; the flag's parser refuses bad values with the variable's name", () => {
    const p = program();
    p.parse([], { from: "user" });
    applyEnvAndFile(p, { env: { GROK_TOOLS_TAGS: "x, y,,z" } });
    expect(p.opts().tags).toEqual(["x", "y", "z"]);
    const q = program();
    q.parse([], { from: "user" });
    expect(() => applyEnvAndFile(q, { env: { GROK_TOOLS_MAX_SESSIONS: "zero" } })).toThrow(
      new ConfigError('GROK_TOOLS_MAX_SESSIONS: "zero" is not usable: not a positive integer'),
    );
  });
});
