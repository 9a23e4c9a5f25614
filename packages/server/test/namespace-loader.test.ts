// The loader's checklist (issue #17): a bad namespace package stops start-up before the server
// listens, naming the package and the reason (wrong shape, a duplicate tool id, a missing dependency,
// a namespace name that is taken), by package name (--namespace) and by createToolsServer({ namespaces }).
// Also: the server ships OpenCode and GrokBuildHashline, usable through the real client.
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { credentials, type ServiceError } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient, type ExecuteToolResponse } from "@grok-tools/proto";
import { Type, defineNamespace, defineTool } from "@grok-tools/runtime";
import { BUILTIN_NAMESPACES, NamespaceRegistrationError, createToolsServer, type ToolsServer } from "@grok-tools/server";
import { cleanUp, SERVER_TEST_TIMEOUT_MS, startServer, tempDir } from "./run-server.js";

// Each test starts a server process: on a loaded machine its start alone can take tens of seconds.
jest.setTimeout(SERVER_TEST_TIMEOUT_MS);

const EXIT_USAGE = 2;
const servers: ToolsServer[] = [];
afterEach(async () => {
  cleanUp();
  await Promise.all(servers.splice(0).map((s) => s.shutdown(100)));
});

/** node_modules/<name> in `app` with a package.json and an index.js. */
function installPackage(app: string, name: string, code: string): void {
  const dir = path.join(app, "node_modules", ...name.split("/"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name, version: "1.0.0", type: "module", exports: { ".": "./index.js" }, peerDependencies: { "@grok-tools/runtime": ">=0.1.0 <1.0.0" } }),
  );
  writeFileSync(path.join(dir, "index.js"), code);
}

const namespaceCode = (name: string, toolIds: string[] = ["ping"]) => `
import { defineNamespace, defineTool, Type } from "@grok-tools/runtime";
const tool = (id) => defineTool({
  id, kind: "other", description: "Answers pong.",
  input: Type.Object({}), output: Type.Object({ type: Type.Literal("Pong") }),
  async execute() { return { output: { type: "Pong" }, promptText: "pong" }; },
});
export default defineNamespace({ name: ${JSON.stringify(name)}, apiVersion: 1, tools: ${JSON.stringify(toolIds)}.map(tool) });
`;

async function refusedStart(app: string, packages: string[]) {
  const args = ["--listen", "127.0.0.1:0", "--workspace", app, "--state-dir", path.join(app, ".state")];
  for (const p of packages) args.push("--namespace", p);
  const server = startServer(args, { cwd: app });
  const exit = await server.exited;
  return { code: exit.code, stderr: server.stderr() };
}

describe("--namespace refuses a bad package with its name and the reason", () => {
  it("wrong shape: no defineNamespace() default export", async () => {
    const app = tempDir("grok-ns-");
    installPackage(app, "@acme/shapeless", "export default { name: 'Acme', tools: [] };\n");
    const { code, stderr } = await refusedStart(app, ["@acme/shapeless"]);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toBe(
      'grok-tools-server: error: Package "@acme/shapeless" does not default-export a namespace made with defineNamespace(): apiVersion must be 1\n',
    );
  });

  it("a tool id twice", async () => {
    const app = tempDir("grok-ns-");
    installPackage(app, "@acme/twice", namespaceCode("Acme", ["ping", "ping"]));
    const { code, stderr } = await refusedStart(app, ["@acme/twice"]);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toBe('grok-tools-server: error: Cannot load namespace package "@acme/twice": Invalid namespace "Acme": tool id "ping" appears twice\n');
  });

  it("a dependency that is not installed", async () => {
    const app = tempDir("grok-ns-");
    installPackage(app, "@acme/needs-dep", `import "@acme/left-pad";\n${namespaceCode("Acme")}`);
    const { code, stderr } = await refusedStart(app, ["@acme/needs-dep"]);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toMatch(
      /^grok-tools-server: error: Cannot load namespace package "@acme\/needs-dep": Cannot find package '@acme\/left-pad' imported from .*index\.js\n$/,
    );
  });

  it("a namespace name the server already has", async () => {
    const app = tempDir("grok-ns-");
    installPackage(app, "@acme/opencode-clone", namespaceCode("OpenCode"));
    const { code, stderr } = await refusedStart(app, ["@acme/opencode-clone"]);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toBe(
      'grok-tools-server: error: Package "@acme/opencode-clone" declares namespace "OpenCode", which the server already provides. Give the namespace a name of its own.\n',
    );
  });

  it("two packages declaring one namespace name", async () => {
    const app = tempDir("grok-ns-");
    installPackage(app, "@acme/one", namespaceCode("Acme"));
    installPackage(app, "@acme/two", namespaceCode("Acme"));
    const { code, stderr } = await refusedStart(app, ["@acme/one", "@acme/two"]);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toBe(
      'grok-tools-server: error: Package "@acme/two" declares namespace "Acme", which package "@acme/one" already declares. Load only one of them, or rename one namespace.\n',
    );
  });
});

const pong = defineTool({
  id: "ping",
  kind: "other",
  description: "Answers pong.",
  input: Type.Object({}),
  output: Type.Object({ type: Type.Literal("Pong") }),
  execute: async () => ({ output: { type: "Pong" as const }, promptText: "pong" }),
});

describe("createToolsServer({ namespaces }) refuses a bad namespace", () => {
  const start = (namespaces: unknown[]) => () => {
    const dir = tempDir("grok-ns-");
    servers.push(createToolsServer({ workspace: dir, stateDir: path.join(dir, ".state"), namespaces: namespaces as never }));
  };

  it("wrong shape", () => {
    expect(start([{ name: "Acme", apiVersion: 1, tools: [] }])).toThrow(NamespaceRegistrationError);
    expect(start([{ name: "Acme", apiVersion: 1, tools: [] }])).toThrow("namespaces[0] is not a namespace made with defineNamespace()");
    expect(start([{ name: "Acme", apiVersion: 2, tools: [] }])).toThrow("namespaces[0] is not a namespace made with defineNamespace(): apiVersion must be 1");
  });

  it("the name of a built-in namespace", () => {
    expect(start([defineNamespace({ name: "GrokBuildHashline", apiVersion: 1, tools: [pong] })])).toThrow(
      'namespaces[0] (namespace "GrokBuildHashline") has the name of a built-in namespace; give it a name of its own',
    );
  });

  it("one name twice", () => {
    const acme = defineNamespace({ name: "Acme", apiVersion: 1, tools: [pong] });
    expect(start([acme, defineNamespace({ name: "Acme", apiVersion: 1, tools: [pong] })])).toThrow(
      'namespaces[1] (namespace "Acme") has the same name as namespaces[0]; register each namespace once',
    );
  });

  it("a good one is served", async () => {
    const dir = tempDir("grok-ns-");
    const server = createToolsServer({
      workspace: dir,
      stateDir: path.join(dir, ".state"),
      namespaces: [defineNamespace({ name: "Acme", apiVersion: 1, tools: [pong] })],
    });
    servers.push(server);
    const client = new GrokToolsServiceClient(await server.listen("127.0.0.1:0"), credentials.createInsecure());
    try {
      const fin = await promisify<FinalizeToolServerConfigRequest, { success: boolean }>((r, cb) => client.finalizeToolConfigRequest(r, cb as never))(
        FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "Acme:ping" }] }),
      );
      expect(fin.success).toBe(true);
    } finally {
      client.close();
    }
  });
});

describe("OpenCode and GrokBuildHashline ship with the server", () => {
  it("are built-in namespaces", () => {
    expect(BUILTIN_NAMESPACES.map((ns) => ns.name)).toEqual(["GrokBuild", "GrokBuildConcise", "Codex", "OpenCode", "GrokBuildHashline"]);
  });

  it("OpenCode tools run through the real client, and the hashline bundle rule is reported once", async () => {
    const dir = tempDir("grok-ns-");
    writeFileSync(path.join(dir, "a.txt"), "alpha\nbeta\n");
    const server = createToolsServer({ workspace: dir, stateDir: path.join(dir, ".state") });
    servers.push(server);
    const client = new GrokToolsServiceClient(await server.listen("127.0.0.1:0"), credentials.createInsecure());
    const rpc = <T>(invoke: (cb: (e: ServiceError | null, r: T) => void) => void) => new Promise<T>((res, rej) => invoke((e, r) => (e ? rej(e) : res(r))));
    try {
      const conflict = await rpc<{ success: boolean; message: string }>((cb) =>
        client.finalizeToolConfigRequest(
          FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuildHashline:hashline_edit" }] }),
          cb,
        ),
      ).catch((e: ServiceError) => ({ success: false, message: e.details }));
      expect(conflict.success).toBe(false);
      expect(conflict.message.match(/mixed standard and hashline file tools are not allowed/g)).toHaveLength(1);

      const fin = await rpc<{ success: boolean; message: string }>((cb) =>
        client.finalizeToolConfigRequest(
          FinalizeToolServerConfigRequest.fromPartial({ tools: ["bash", "read", "edit", "todowrite"].map((t) => ({ id: `OpenCode:${t}` })) }),
          cb,
        ),
      );
      expect(fin).toMatchObject({ success: true });
      const exec = (toolName: string, input: unknown) =>
        rpc<ExecuteToolResponse>((cb) => client.executeTool(ExecuteToolRequest.fromPartial({ toolName, inputJson: JSON.stringify(input) }), cb));
      const read = await exec("read", { filePath: "a.txt" });
      expect(read.result).toMatchObject({
        $case: "success",
        value: {
          promptText: `<path>${await realpathOf(dir)}/a.txt</path>\n<type>file</type>\n<content>1: alpha\n2: beta\n\n(End of file - total 2 lines)\n</content>`,
        },
      });
      const bash = await exec("bash", { command: "printf hi", description: "Say hi" });
      expect(bash.result).toMatchObject({ $case: "success", value: { promptText: "hi" } });
    } finally {
      client.close();
    }
  });
});

async function realpathOf(p: string): Promise<string> {
  const { realpath } = await import("node:fs/promises");
  return realpath(p);
}
