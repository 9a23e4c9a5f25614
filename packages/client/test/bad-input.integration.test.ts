// Integration (issue 23.6): bad input gets a clear INVALID_INPUT (or INVALID_ARGUMENT for a body
// that is no protobuf), never INTERNAL, through the real grok-tools-server and the real client; the
// garbage body goes through a raw grpc-js client, since ours cannot send one.
import { afterAll, beforeAll, expect, it, jest } from "@jest/globals";
import { Client, credentials, status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";
import { ErrorCode } from "@grok-tools/proto";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnServer, type SpawnedServer } from "../src/spawn-server.js";
import { spawnTimeoutMs } from "./timeouts.js";

// The hook and some tests start servers, up to two one after another.
jest.setTimeout(spawnTimeoutMs(2));

const SERVICE = "/xai.grok.tools.v1.GrokToolsService";
/** Eleven 0xff bytes: a varint longer than protobuf allows. */
const GARBAGE = Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f]);

let root: string;
let workspace: string;
let server: SpawnedServer;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "gtc-bad-input-"));
  workspace = path.join(root, "ws");
  await mkdir(workspace);
  await writeFile(path.join(workspace, "a.txt"), "needle\n");
  server = await spawnServer({ workspace, stateDir: path.join(root, "state") });
  const finalized = await server.client.finalize({
    tools: [
      { id: "GrokBuild:grep" },
      { id: "GrokBuild:todo_write" },
      { id: "Codex:grep_files" },
      { id: "Codex:list_dir", nameOverride: "codex_list_dir" },
      { id: "GrokBuild:read_file" },
    ],
  });
  expect(finalized.success).toBe(true);
});

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

async function failure(tool: string, input: unknown) {
  const result = await server.client.executeTool(tool, input);
  if (result.ok) throw new Error(`${tool} succeeded: ${result.promptText}`);
  return result.error;
}

it("grep refuses a NUL byte in path, pattern or glob with INVALID_INPUT", async () => {
  expect(await failure("grep", { pattern: "needle", path: "a\u0000b" })).toMatchObject({
    code: ErrorCode.ERROR_CODE_INVALID_INPUT,
    message: 'Invalid path (contains a NUL byte): "a\\u0000b"',
  });
  expect(await failure("grep", { pattern: "nee\u0000dle" })).toMatchObject({
    code: ErrorCode.ERROR_CODE_INVALID_INPUT,
    message: 'Invalid pattern (contains a NUL byte): "nee\\u0000dle"',
    suggestion: "To match a NUL byte, write \\x00 in the regular expression.",
  });
  expect(await failure("grep", { pattern: "needle", glob: "*\u0000" })).toMatchObject({
    code: ErrorCode.ERROR_CODE_INVALID_INPUT,
    message: 'Invalid glob (contains a NUL byte): "*\\u0000"',
  });
});

it("grep refuses a 30 MB pattern with INVALID_INPUT naming the limit", async () => {
  const error = await failure("grep", { pattern: "a".repeat(30 * 1024 * 1024) });
  expect(error).toMatchObject({ code: ErrorCode.ERROR_CODE_INVALID_INPUT, message: "Invalid pattern: it is 31457280 bytes long; the limit is 65536 bytes." });
  // A long pattern under the limit still searches.
  const ok = await server.client.executeTool("grep", { pattern: `needle|${"z".repeat(60_000)}` });
  expect(ok.ok && ok.promptText).toContain("needle");
}, 60_000);

it("Codex grep_files and list_dir refuse a NUL byte with INVALID_INPUT", async () => {
  expect(await failure("grep_files", { pattern: "needle", path: "a\u0000b" })).toMatchObject({
    code: ErrorCode.ERROR_CODE_INVALID_INPUT,
    message: 'Invalid path (contains a NUL byte): "a\\u0000b"',
  });
  expect(await failure("grep_files", { pattern: "x".repeat(200_000) })).toMatchObject({
    code: ErrorCode.ERROR_CODE_INVALID_INPUT,
    message: "Invalid pattern: it is 200000 bytes long; the limit is 65536 bytes.",
  });
  const dir = `${workspace}/a\u0000b`;
  expect(await failure("codex_list_dir", { dir_path: dir })).toMatchObject({
    code: ErrorCode.ERROR_CODE_INVALID_INPUT,
    message: `Invalid path (contains a NUL byte): ${JSON.stringify(dir)}`,
  });
});

it("stores todo ids named like Object.prototype members, and GetToolState shows them", async () => {
  const written = await server.client.executeTool("todo_write", {
    merge: false,
    todos: [
      { id: "__proto__", content: "p" },
      { id: "constructor", content: "c" },
    ],
  });
  expect(written.ok && written.promptText).toBe("- [pending] __proto__: p\n- [pending] constructor: c\n");
  const merged = await server.client.executeTool("todo_write", { todos: [{ id: "__proto__", status: "completed" }] });
  expect(merged.ok && merged.promptText).toBe("- [completed] __proto__: p\n- [pending] constructor: c\n");
  const state = JSON.parse((await server.client.getToolState()).stateJson) as { state: Record<string, { todos: Record<string, unknown> }> };
  expect(Object.keys(state.state["grok_build.Todo"]!.todos)).toEqual(["__proto__", "constructor"]);
});

it("answers a request body that is no protobuf with INVALID_ARGUMENT, unary and streaming, and keeps serving", async () => {
  const raw = new Client(server.address, credentials.createInsecure());
  const identity = (bytes: Buffer) => bytes;
  try {
    for (const method of ["ExecuteTool", "ListTools", "FinalizeToolConfigRequest"]) {
      const error = await new Promise<ServiceError | null>((resolve) =>
        raw.makeUnaryRequest(`${SERVICE}/${method}`, identity, identity, GARBAGE, (e) => resolve(e)),
      );
      expect(error).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
      expect(error?.details).toBe(
        `The ${method} request body is not a valid protobuf message (invalid varint); send the method's request message, protobuf-encoded.`,
      );
    }
    const streamed = await new Promise<ServiceError>((resolve, reject) => {
      const stream = raw.makeServerStreamRequest(`${SERVICE}/ExecuteToolStream`, identity, identity, GARBAGE);
      stream.on("data", () => reject(new Error("unexpected data")));
      stream.on("error", resolve);
    });
    expect(streamed.code).toBe(GrpcStatus.INVALID_ARGUMENT);
  } finally {
    raw.close();
  }
  const still = await server.client.executeTool("grep", { pattern: "needle" });
  expect(still.ok).toBe(true);
});

/** The session's state file, wherever under the state folder the server keeps it. */
async function findStateFile(dir: string): Promise<string> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === "resources_state.json") return path.join(entry.parentPath, entry.name);
  }
  throw new Error(`no resources_state.json under ${dir}`);
}

it("refuses prototype names as categories or resource ids of initial_tool_state_json, saying which", async () => {
  const own = await spawnServer({ workspace, stateDir: path.join(root, "state-initial") });
  try {
    // Raw JSON text: a `__proto__` key written in a JS object literal would set the prototype, not a key.
    const refused = await own.client.finalize({ tools: [{ id: "GrokBuild:todo_write" }], initialToolStateJson: '{"state":{"__proto__":{"todos":{}}}}' });
    expect(refused.success).toBe(false);
    expect(refused.message).toContain('initial_tool_state_json.state has a forbidden key "__proto__"');
  } finally {
    await own.close();
  }
  const second = await spawnServer({ workspace, stateDir: path.join(root, "state-initial") });
  try {
    const refused = await second.client.finalize({ tools: [{ id: "GrokBuild:todo_write" }], initialToolStateJson: '{"constructor":{},"state":{}}' });
    expect(refused.success).toBe(false);
    expect(refused.message).toContain('initial_tool_state_json has a forbidden key "constructor"');
  } finally {
    await second.close();
  }
});

it("keeps a todo id __proto__ from initial state through a merge and a restart; prototype keys in params_json and the state file change nothing", async () => {
  const stateDir = path.join(root, "state-proto");
  const tools = [{ id: "GrokBuild:todo_write" }, { id: "GrokBuild:read_file", paramsJson: '{"__proto__":{"cursor_rules_on_read":true},"constructor":1}' }];
  const first = await spawnServer({ workspace, stateDir });
  let file: string;
  try {
    const finalized = await first.client.finalize({
      tools,
      initialToolStateJson: '{"state":{"grok_build.Todo":{"todos":{"__proto__":{"content":"seeded","status":"pending"}}}}}',
    });
    expect(finalized.success).toBe(true);
    const state = JSON.parse((await first.client.getToolState()).stateJson) as {
      params: Record<string, unknown>;
      state: Record<string, { todos: Record<string, unknown> }>;
    };
    expect(state.params["grok_build.ReadFile"]).toEqual({ cursor_rules_on_read: false });
    expect(state.state["grok_build.Todo"]!.todos).toEqual(JSON.parse('{"__proto__":{"content":"seeded","priority":"medium","status":"pending"}}'));
    file = await findStateFile(stateDir);
  } finally {
    await first.close();
  }
  // Prototype names planted in the state file, at the top, category and id levels.
  const planted = (await readFile(file, "utf8"))
    .replace(/^\{/, '{"__proto__":{"polluted":true},"constructor":{"x":1},')
    .replace('"state": {', '"state": {"__proto__":{"polluted":true},"constructor":{"y":1},');
  expect(planted).toContain('"constructor":{"y":1}');
  await writeFile(file, planted);
  const second = await spawnServer({ workspace, stateDir });
  try {
    expect((await second.client.finalize({ tools })).success).toBe(true);
    const merged = await second.client.executeTool("todo_write", { todos: [{ id: "__proto__", status: "completed" }] });
    expect(merged.ok && merged.promptText).toBe("- [completed] __proto__: seeded\n");
    const state = JSON.parse((await second.client.getToolState()).stateJson) as Record<string, unknown>;
    expect(Object.keys(state)).toEqual(["params", "state"]);
    expect(Object.keys(state.state as object)).toEqual(["grok_build.Todo"]);
    const onDisk = JSON.parse(await readFile(file, "utf8")) as Record<string, Record<string, unknown>>;
    expect(Object.keys(onDisk.state!)).toEqual(["grok_build.Todo"]);
    expect(Object.hasOwn(onDisk, "constructor")).toBe(false);
  } finally {
    await second.close();
  }
});
