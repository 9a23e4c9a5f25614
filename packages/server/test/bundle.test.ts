// The command runs from its bundle (dist/bundle/cli.mjs, made by scripts/bundle-server.mjs at build
// time, issue #18): the bin loads that one file instead of the server's ~1,200 modules, falls back to
// dist/cli.js when a build has not made it, serves the same tools and health service, and a vendor
// namespace it loads gets the bundle's runtime (one instance), not the installed package's.
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { spawnSync } from "node:child_process";
import { credentials, type ServiceError } from "@grpc/grpc-js";
import {
  ExecuteToolRequest,
  FinalizeToolServerConfigRequest,
  GrokToolsServiceClient,
  type ExecuteToolResponse,
  type ListToolsResponse,
} from "@grok-tools/proto";
import { createToolsServer } from "@grok-tools/server";
import { BIN, cleanUp, SERVER_TEST_TIMEOUT_MS, startServer, tempDir } from "./run-server.js";

// Each test starts a server process: on a loaded machine its start alone can take tens of seconds.
jest.setTimeout(SERVER_TEST_TIMEOUT_MS);

afterEach(cleanUp);

const SERVER_PACKAGE = path.resolve(import.meta.dirname, "..");
const BUNDLE = path.join(SERVER_PACKAGE, "dist", "bundle", "cli.mjs");
const VERSION = (JSON.parse(readFileSync(path.join(SERVER_PACKAGE, "package.json"), "utf8")) as { version: string }).version;

/** The ES modules a `node <bin> --version` loads, from Node's own module debug log, outside node_modules. */
function ownModulesLoaded(bin: string): { urls: string[]; stdout: string } {
  const result = spawnSync(process.execPath, [bin, "--version"], {
    encoding: "utf8",
    env: { ...process.env, NODE_DEBUG: "esm" },
    // The debug log of the unbundled modules runs to megabytes.
    maxBuffer: 256 * 1024 * 1024,
  });
  expect(result.status).toBe(0);
  const urls = [...result.stderr.matchAll(/Storing (file:\/\/\S+)/g)].map((m) => m[1]!).filter((url) => !url.includes("/node_modules/"));
  return { urls: [...new Set(urls)].sort(), stdout: result.stdout };
}

describe("the grok-tools-server command", () => {
  it("loads the bundle: one module of ours besides the bin", () => {
    const { urls, stdout } = ownModulesLoaded(BIN);
    expect(urls).toEqual([pathToFileURL(BIN).href, pathToFileURL(BUNDLE).href].sort());
    expect(stdout.trim()).toBe(VERSION);
  });

  it("answers grpc.health.v1 Check (the health service, built on its first call, loads grpc-health-check from the dependencies)", async () => {
    const dir = tempDir("grok-bundle-health-");
    const address = await startServer(["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", path.join(dir, "state"), "--log-level", "silent"])
      .listening;
    const { loadSync } = await import("@grpc/proto-loader");
    const { loadPackageDefinition } = await import("@grpc/grpc-js");
    const { protoPath } = (await import("grpc-health-check")) as unknown as { protoPath: string };
    type HealthClient = { check(r: object, cb: (e: Error | null, r: { status: string }) => void): void; close(): void };
    const pkg = loadPackageDefinition(loadSync(protoPath, { enums: String })) as unknown as {
      grpc: { health: { v1: { Health: new (address: string, c: unknown) => HealthClient } } };
    };
    const health = new pkg.grpc.health.v1.Health(address, credentials.createInsecure());
    try {
      for (const service of ["", "xai.grok.tools.v1.GrokToolsService"]) {
        const reply = await new Promise<{ status: string }>((resolve, reject) => health.check({ service }, (e, r) => (e ? reject(e) : resolve(r))));
        expect(reply.status).toBe("SERVING");
      }
    } finally {
      health.close();
    }
  });

  it("falls back to dist/cli.js when there is no bundle", () => {
    // A copy of the package's launcher whose dist/ has no bundle, only a cli.js standing for tsc's.
    const root = tempDir("grok-bundle-");
    mkdirSync(path.join(root, "bin"));
    mkdirSync(path.join(root, "dist"));
    const bin = path.join(root, "bin", "grok-tools-server.js");
    copyFileSync(BIN, bin);
    const cli = path.join(root, "dist", "cli.js");
    writeFileSync(cli, `export * from ${JSON.stringify(pathToFileURL(path.join(SERVER_PACKAGE, "dist", "cli.js")).href)};\n`);
    const { urls, stdout } = ownModulesLoaded(bin);
    expect(urls).toContain(pathToFileURL(cli).href);
    expect(urls).not.toContain(pathToFileURL(BUNDLE).href);
    expect(stdout.trim()).toBe(VERSION);
  });
});

/** Every built-in tool as ListTools shows it, descriptions and schemas included. */
async function listTools(address: string): Promise<ListToolsResponse> {
  const client = new GrokToolsServiceClient(address, credentials.createInsecure());
  try {
    return await new Promise<ListToolsResponse>((resolve, reject) =>
      client.listTools({ includeDisabled: true, includeSchemas: true }, (error, response) => (error ? reject(error) : resolve(response))),
    );
  } finally {
    client.close();
  }
}

describe("what a model sees", () => {
  it("is the same from the bundled command as from the modules: every tool, description and schema", async () => {
    const workspace = tempDir("grok-bundle-ws-");
    const command = startServer([
      "--listen",
      "127.0.0.1:0",
      "--workspace",
      workspace,
      "--state-dir",
      path.join(tempDir("grok-bundle-state-"), "s"),
      "--log-level",
      "silent",
    ]);
    const modules = createToolsServer({ workspace, stateDir: path.join(tempDir("grok-bundle-state-"), "s") });
    try {
      const fromModules = await listTools(await modules.listen("127.0.0.1:0"));
      const fromBundle = await listTools(await command.listening);
      expect(fromModules.tools.length).toBeGreaterThan(30);
      expect(fromBundle).toEqual(fromModules);
    } finally {
      await modules.shutdown(500);
    }
  });
});

describe("a vendor namespace under the bundled command", () => {
  it("imports the bundle's runtime and tasks, through every entry, and its tools run", async () => {
    const root = tempDir("grok-bundle-ns-");
    const vendor = path.join(root, "node_modules", "acme-ns");
    mkdirSync(vendor, { recursive: true });
    writeFileSync(
      path.join(vendor, "package.json"),
      JSON.stringify({
        name: "acme-ns",
        version: "1.0.0",
        type: "module",
        exports: "./index.js",
        peerDependencies: { "@grok-tools/runtime": ">=0.1.0 <1.0.0" },
      }),
    );
    // Where each shared peer entry resolved to, reported by a tool; ToolError thrown from the vendor's
    // import must come back as the tool's error with its own code.
    writeFileSync(
      path.join(vendor, "index.js"),
      `import { defineNamespace, defineTool, Type, ToolError, ErrorCode } from "@grok-tools/runtime";
import * as fs from "@grok-tools/runtime/fs";
import * as helpers from "@grok-tools/runtime/helpers";
import * as tasks from "@grok-tools/tasks";
const entries = ["@grok-tools/runtime", "@grok-tools/runtime/fs", "@grok-tools/runtime/helpers", "@grok-tools/tasks"];
const where = defineTool({
  id: "where", kind: "other", description: "Says where the runtime came from.",
  input: Type.Object({ fail: Type.Boolean() }), output: Type.Object({ type: Type.Literal("Where"), urls: Type.Array(Type.String()) }),
  async execute(input) {
    if (input.fail) throw new ToolError(ErrorCode.INVALID_INPUT, "asked to fail");
    const urls = entries.map((e) => import.meta.resolve(e));
    return { output: { type: "Where", urls }, promptText: [Object.keys(fs).length > 0, Object.keys(helpers).length > 0, Object.keys(tasks).length > 0].join(",") };
  },
});
export default defineNamespace({ name: "AcmeBundle", apiVersion: 1, tools: [where] });
`,
    );
    const server = startServer(
      ["--namespace", "acme-ns", "--listen", "127.0.0.1:0", "--workspace", root, "--state-dir", path.join(root, "state"), "--log-level", "silent"],
      { cwd: root },
    );
    const address = await server.listening;
    const client = new GrokToolsServiceClient(address, credentials.createInsecure());
    const call = <T>(invoke: (callback: (error: ServiceError | null, response: T) => void) => void) =>
      new Promise<T>((resolve, reject) => invoke((error, response) => (error ? reject(error) : resolve(response))));
    try {
      const fin = await call<{ success: boolean }>((cb) =>
        client.finalizeToolConfigRequest(FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "AcmeBundle:where" }] }), cb),
      );
      expect(fin).toMatchObject({ success: true });
      const ok = await call<ExecuteToolResponse>((cb) =>
        client.executeTool(ExecuteToolRequest.fromPartial({ toolName: "where", inputJson: JSON.stringify({ fail: false }) }), cb),
      );
      expect(ok.result).toMatchObject({ $case: "success", value: { promptText: "true,true,true" } });
      const peers = path.join(SERVER_PACKAGE, "dist", "bundle", "peers", "@grok-tools");
      const success = ok.result?.$case === "success" ? ok.result.value : undefined;
      expect((JSON.parse(success?.outputJson ?? "{}") as { urls?: string[] }).urls).toEqual(
        ["runtime/index.mjs", "runtime/fs.mjs", "runtime/helpers.mjs", "tasks/index.mjs"].map((file) => pathToFileURL(path.join(peers, file)).href),
      );
      const failed = await call<ExecuteToolResponse>((cb) =>
        client.executeTool(ExecuteToolRequest.fromPartial({ toolName: "where", inputJson: JSON.stringify({ fail: true }) }), cb),
      );
      expect(failed.result).toMatchObject({ $case: "error", value: { message: expect.stringContaining("asked to fail") } });
    } finally {
      client.close();
    }
  });
});
