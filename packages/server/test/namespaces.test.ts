// Vendor namespaces loaded by the real command with --namespace: the README's "Add a namespace"
// example as written, and a package linked for local development the way `npm install ../my-ns`
// links it (a symlink node_modules/my-ns -> ../../my-ns), whose peer @grok-tools/runtime must come
// from the server: the link's real folder has none, or only a dev copy that must not load.
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { credentials, type ServiceError } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient, type ExecuteToolResponse } from "@grok-tools/proto";
import { cleanUp, SERVER_TEST_TIMEOUT_MS, startServer, tempDir } from "./run-server.js";

// Each test starts a server process: on a loaded machine its start alone can take tens of seconds.
jest.setTimeout(SERVER_TEST_TIMEOUT_MS);

afterEach(cleanUp);

const SERVER_PACKAGE = path.resolve(import.meta.dirname, "..");
const README = path.resolve(import.meta.dirname, "../../../README.md");

/** An app folder with @grok-tools/server installed (linked to this checkout) and its bin. */
function appWithServer(root: string): { app: string; bin: string } {
  const app = path.join(root, "app");
  mkdirSync(path.join(app, "node_modules", "@grok-tools"), { recursive: true });
  mkdirSync(path.join(app, "node_modules", ".bin"));
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true }));
  symlinkSync(SERVER_PACKAGE, path.join(app, "node_modules", "@grok-tools", "server"));
  const bin = path.join(app, "node_modules", ".bin", "grok-tools-server");
  symlinkSync("../@grok-tools/server/bin/grok-tools-server.js", bin);
  return { app, bin };
}

/** A vendor package folder: package.json with the documented peer range, and its code. */
function vendorPackage(dir: string, name: string, code: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name,
      version: "1.0.0",
      type: "module",
      exports: { ".": { import: "./index.js" } },
      peerDependencies: { "@grok-tools/runtime": ">=0.1.0 <1.0.0" },
    }),
  );
  writeFileSync(path.join(dir, "index.js"), code);
}

async function callTool(address: string, id: string, input: unknown): Promise<ExecuteToolResponse> {
  const client = new GrokToolsServiceClient(address, credentials.createInsecure());
  const call = <T>(invoke: (callback: (error: ServiceError | null, response: T) => void) => void) =>
    new Promise<T>((resolve, reject) => invoke((error, response) => (error ? reject(error) : resolve(response))));
  try {
    const fin = await call<{ success: boolean; message: string }>((cb) =>
      client.finalizeToolConfigRequest(FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id }] }), cb),
    );
    expect(fin).toMatchObject({ success: true });
    return await call<ExecuteToolResponse>((cb) =>
      client.executeTool(ExecuteToolRequest.fromPartial({ toolName: id.slice(id.indexOf(":") + 1), inputJson: JSON.stringify(input) }), cb),
    );
  } finally {
    client.close();
  }
}

const LINKED_NAMESPACE = `
import { defineNamespace, defineTool, Type } from "@grok-tools/runtime";
const ping = defineTool({
  id: "ping", kind: "other", description: "Answers pong.",
  input: Type.Object({}), output: Type.Object({ type: Type.Literal("Pong") }),
  async execute() { return { output: { type: "Pong" }, promptText: "pong" }; },
});
export default defineNamespace({ name: "Dev", apiVersion: 1, tools: [ping] });
`;

describe("--namespace", () => {
  it("loads the README's namespace example as written, from the folder the server starts in", async () => {
    const readme = readFileSync(README, "utf8");
    const section = readme.slice(readme.indexOf("## Add a namespace"));
    const source = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const command = /Load it with `(grok-tools-server --namespace (\S+))`/.exec(section)!;
    const root = tempDir("grok-ns-");
    const { app, bin } = appWithServer(root);
    // The vendor publishes compiled JavaScript; the README shows its TypeScript source.
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    vendorPackage(path.join(app, "node_modules", ...command[2]!.split("/")), command[2]!, js);
    const args = command[1]!.split(" ").slice(1);
    const server = startServer([...args, "--listen", "127.0.0.1:0", "--workspace", app, "--state-dir", path.join(root, "state"), "--log-level", "silent"], {
      command: [bin],
      cwd: app,
    });
    const reply = await callTool(await server.listening, "Acme:hello", { name: "Ada" });
    expect(reply.result).toMatchObject({ $case: "success", value: { promptText: "Hello, Ada!" } });
  });

  it("loads a package linked with npm install ../my-ns, resolving @grok-tools/runtime from the server", async () => {
    const root = tempDir("grok-ns-");
    const { app, bin } = appWithServer(root);
    const vendor = path.join(root, "my-ns");
    vendorPackage(vendor, "my-ns", LINKED_NAMESPACE);
    // A dev copy of the runtime in the vendor's own folder must not be the one loaded.
    vendorPackage(
      path.join(vendor, "node_modules", "@grok-tools", "runtime"),
      "@grok-tools/runtime",
      'throw new Error("the vendor\'s own copy of the runtime was loaded");\n',
    );
    symlinkSync("../../my-ns", path.join(app, "node_modules", "my-ns"));
    const server = startServer(
      ["--namespace", "my-ns", "--listen", "127.0.0.1:0", "--workspace", app, "--state-dir", path.join(root, "state"), "--log-level", "silent"],
      { command: [bin], cwd: app },
    );
    const reply = await callTool(await server.listening, "Dev:ping", {});
    expect(reply.result).toMatchObject({ $case: "success", value: { promptText: "pong" } });
  });

  it("a linked package without any runtime of its own works too", async () => {
    const root = tempDir("grok-ns-");
    const { app, bin } = appWithServer(root);
    vendorPackage(path.join(root, "my-ns"), "my-ns", LINKED_NAMESPACE);
    symlinkSync("../../my-ns", path.join(app, "node_modules", "my-ns"));
    const server = startServer(
      ["--namespace", "my-ns", "--listen", "127.0.0.1:0", "--workspace", app, "--state-dir", path.join(root, "state"), "--log-level", "silent"],
      { command: [bin], cwd: app },
    );
    const reply = await callTool(await server.listening, "Dev:ping", {});
    expect(reply.result).toMatchObject({ $case: "success", value: { promptText: "pong" } });
  });
});
