// Bad input (issue #19): every malformed request of lib/bad-input-cases.ts through the real server,
// on the wire as a client in any language could send it; each gets its ToolError code or gRPC
// status, the server keeps running, and the workspace and the folder beside it are unchanged.
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { Metadata, status as GrpcStatus } from "@grpc/grpc-js";
import { ErrorCode, ExecuteToolResponse } from "@grok-tools/proto";
import { spawnServer, type SpawnedServer } from "@grok-tools/client";
import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { badInputCases, type BadInputCase, type Expected } from "./lib/bad-input-cases.js";
import { check } from "./lib/report.js";
import { alive, makeRoot, startWorkspaceServer, type TestRoot } from "./lib/server.js";
import { snapshot, snapshotDiff, type Snapshot } from "./lib/snapshot.js";
import { RawClient, encodeExecute, encodeFinalize, encodeSetTruncation, executeCode, finalizeSucceeded } from "./lib/wire.js";

let root: TestRoot;
let server: SpawnedServer;
let raw: RawClient;
let before: { ws: Snapshot; outside: Snapshot };

beforeAll(async () => {
  root = await makeRoot("gtr-bad-");
  execFileSync("mkfifo", [path.join(root.workspace, "fifo")]);
  await symlink(root.outside, path.join(root.workspace, "out-link"));
  await mkdir(`${root.workspace}_evil`);
  await writeFile(`${root.workspace}_evil/x.txt`, "evil\n");
  await writeFile(path.join(root.workspace, "caf\u00e9.txt"), "nfc\n");
  server = await startWorkspaceServer(root);
  raw = new RawClient(server.address);
  // search_replace needs a read first (so that refusals are about the input, not FILE_NOT_READ).
  expect((await server.client.executeTool("read_file", { target_file: "a.txt" })).ok).toBe(true);
  before = { ws: await snapshot(root.workspace), outside: await snapshot(root.outside) };
}, 60_000);

afterAll(async () => {
  raw?.close();
  await server?.close();
  await root?.remove();
});

const describeExpected = (e: Expected) => (e === "ok" ? "ok" : typeof e === "object" ? `grpc ${GrpcStatus[e.grpc]}` : ErrorCode[e]);

function describeOutcome(status: number, code: number): string {
  if (status !== 0) return `grpc ${GrpcStatus[status]}`;
  return code === 0 ? "ok" : (ErrorCode[code] ?? String(code));
}

async function run(c: BadInputCase): Promise<string[]> {
  const body = encodeExecute(c.tool, c.input, c.options, c.callId);
  const outcome = await raw.unary("ExecuteTool", body);
  const { code, message } = executeCode(outcome);
  const got = describeOutcome(outcome.status, code);
  const problems: string[] = [];
  if (got !== describeExpected(c.expect)) problems.push(`${c.name}: expected ${describeExpected(c.expect)}, got ${got}: ${message.slice(0, 160)}`);
  if (c.stream) {
    const streamed = await raw.stream(body);
    const streamedGot = streamed.status !== 0 ? `grpc ${GrpcStatus[streamed.status]}` : "stream";
    const wanted = c.streamExpect ?? (typeof c.expect === "object" ? c.expect : "stream");
    const expected = wanted === "stream" ? "stream" : describeExpected(wanted);
    if (streamedGot !== expected) problems.push(`${c.name} (stream): expected ${expected}, got ${streamedGot}: ${streamed.details}`);
  }
  return problems;
}

it("answers every malformed request with its documented code, never crashes, and changes nothing", async () => {
  await check("bad input: malformed requests", async () => {
    const cases = badInputCases(root.workspace, root.outside);
    const problems: string[] = [];
    // A few at a time: the table is long, the server must take them concurrently too.
    for (let i = 0; i < cases.length; i += 8) {
      const results = await Promise.all(cases.slice(i, i + 8).map(run));
      problems.push(...results.flat());
      if (!alive(server))
        throw new Error(
          `the server died during ${cases
            .slice(i, i + 8)
            .map((c) => c.name)
            .join(", ")}`,
        );
    }
    expect(problems).toEqual([]);
    expect(snapshotDiff(before.ws, await snapshot(root.workspace))).toEqual([]);
    expect(snapshotDiff(before.outside, await snapshot(root.outside))).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(200);
    return cases.length;
  });
}, 240_000);

it("refuses garbage and oversized bodies, and odd metadata, at the transport, and keeps serving", async () => {
  await check("bad input: wire and metadata", async () => {
    const garbage = [
      Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f]),
      Buffer.from([0x0a, 0x7f, 0x61]), // length past the end
      Buffer.from([0x0f]), // wire type 7
      Buffer.from([0x12]), // tag without its length
    ];
    let count = 0;
    for (const body of garbage) {
      for (const method of ["ExecuteTool", "FinalizeToolConfigRequest", "GetToolState", "SetTruncationConfig"]) {
        expect({ method, ...(await raw.unary(method, body)) }).toMatchObject({ method, status: GrpcStatus.INVALID_ARGUMENT });
        count++;
      }
    }
    // Over the server's 64 MiB receive limit.
    const huge = encodeExecute("read_file", JSON.stringify({ target_file: "x".repeat(65 * 1024 * 1024) }));
    expect((await raw.unary("ExecuteTool", huge)).status).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
    count++;
    // Unknown fields are ignored (proto3), not refused.
    const withUnknown = Buffer.concat([encodeExecute("read_file", JSON.stringify({ target_file: "a.txt" })), Buffer.from([0xa0, 0x06, 0x01])]);
    expect(executeCode(await raw.unary("ExecuteTool", withUnknown)).code).toBe(0);
    count++;
    // Authorization metadata 64 KiB long and repeated 100 times on a server without a token: ignored.
    const big = new Metadata();
    big.set("authorization", `Bearer ${"t".repeat(64 * 1024)}`);
    const repeated = new Metadata();
    for (let i = 0; i < 100; i++) repeated.add("authorization", `Bearer t${i}`);
    for (const md of [big, repeated]) {
      const outcome = await raw.unary("ExecuteTool", encodeExecute("read_file", JSON.stringify({ target_file: "a.txt" })), md);
      expect([0, GrpcStatus.RESOURCE_EXHAUSTED, GrpcStatus.UNAUTHENTICATED, GrpcStatus.INTERNAL]).toContain(outcome.status);
      count++;
    }
    const still = ExecuteToolResponse.decode((await raw.unary("ExecuteTool", encodeExecute("read_file", JSON.stringify({ target_file: "a.txt" })))).response!);
    expect(still.result?.$case).toBe("success");
    expect(alive(server)).toBe(true);
    return count;
  });
}, 60_000);

it("refuses bad finalize configs and truncation extremes with a message, and a good finalize still works afterwards", async () => {
  const own = await makeRoot("gtr-fin-");
  const fresh = await spawnServer({ workspace: own.workspace, stateDir: own.stateDir });
  const freshRaw = new RawClient(fresh.address);
  try {
    await check("bad input: finalize configs", async () => {
      const U32 = "4294967295";
      const U64 = "18446744073709551615";
      const refused: [string, Buffer][] = [
        ["unknown tool id", encodeFinalize([{ id: "GrokBuild:nope" }])],
        ["empty tool id", encodeFinalize([{ id: "" }])],
        ["id without namespace", encodeFinalize([{ id: "read_file" }])],
        ["params_json invalid JSON", encodeFinalize([{ id: "GrokBuild:read_file", paramsJson: "{" }])],
        ["params_json an array", encodeFinalize([{ id: "GrokBuild:read_file", paramsJson: "[]" }])],
        ["params_json wrong field type", encodeFinalize([{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"timeout_secs":"x"}' }])],
        ["params_json 100k deep", encodeFinalize([{ id: "GrokBuild:read_file", paramsJson: `{"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}` }])],
        ["params_json NUL", encodeFinalize([{ id: "GrokBuild:read_file", paramsJson: '{"a\\u0000":1}' }])],
        ["id invalid UTF-8", encodeFinalize([{ id: Buffer.from([0x47, 0xff]) }])],
      ];
      let count = 0;
      for (const [what, body] of refused) {
        const outcome = await freshRaw.unary("FinalizeToolConfigRequest", body);
        const result = outcome.status === 0 ? finalizeSucceeded(outcome) : { success: false, message: `grpc ${outcome.status}` };
        expect({ what, success: result.success }).toEqual({ what, success: false });
        expect(result.message.length).toBeGreaterThan(0);
        count++;
      }
      // Truncation extremes: uint32 max and a varint past uint32 in every numeric field.
      for (const value of ["0", U32, U64]) {
        const t = { defaultMaxOutputBytes: value, perTool: [["read_file", value] as [string, string]], maxCharsPerLine: value, maxLinesRead: value };
        const outcome = await freshRaw.unary("SetTruncationConfig", encodeSetTruncation(t));
        expect([0, GrpcStatus.INVALID_ARGUMENT]).toContain(outcome.status);
        count++;
      }
      expect(alive(fresh)).toBe(true);
      const finalized = await fresh.client.finalize({ tools: [{ id: "GrokBuild:read_file" }] });
      expect(finalized.success).toBe(true);
      return count;
    });
  } finally {
    freshRaw.close();
    await fresh.close();
    await own.remove();
  }
}, 120_000);
