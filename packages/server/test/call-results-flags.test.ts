// The call-results flags of the command (issue #21) reach each session's idempotency record:
// `--call-results-max-entries 1` keeps only the newest call id (an older one runs again),
// `--call-results-max-age-ms` lets a kept answer expire, and `0` entries turns replays off. The
// effect is an append, so every run of the tool shows in the file.
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { credentials, Metadata, type ServiceError } from "@grpc/grpc-js";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  ExecuteToolRequest,
  FinalizeToolServerConfigRequest,
  GrokToolsServiceClient,
  type ExecuteToolResponse,
  type FinalizeToolServerConfigResponse,
} from "@grok-tools/proto";
import { SERVER_TEST_TIMEOUT_MS, cleanUp, startServer, tempDir } from "./run-server.js";

jest.setTimeout(SERVER_TEST_TIMEOUT_MS);

const clients: GrokToolsServiceClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  cleanUp();
});

/** A server process with `flags`, finalized with run_terminal_cmd; `append(id, word)` appends `word` to log.txt under call id `id`. */
async function serve(flags: string[]) {
  const dir = tempDir("grok-call-results-");
  const ws = path.join(dir, "ws");
  mkdirSync(ws);
  const served = startServer(["--workspace", ws, "--state-dir", path.join(dir, "state"), "--listen", "127.0.0.1:0", "--log-level", "silent", ...flags]);
  const client = new GrokToolsServiceClient(await served.listening, credentials.createInsecure());
  clients.push(client);
  const finalized = await new Promise<FinalizeToolServerConfigResponse>((resolve, reject) =>
    client.finalizeToolConfigRequest(
      FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }] }),
      (e: ServiceError | null, r) => (e ? reject(e) : resolve(r)),
    ),
  );
  expect(finalized).toMatchObject({ success: true });
  const append = async (callId: string, word: string): Promise<{ replayed: boolean }> => {
    let replayed = false;
    const response = await new Promise<ExecuteToolResponse>((resolve, reject) => {
      const call = client.executeTool(
        ExecuteToolRequest.fromPartial({
          toolName: "run_terminal_cmd",
          callId,
          inputJson: JSON.stringify({ command: `echo ${word} >> log.txt`, description: "Append" }),
        }),
        new Metadata(),
        (e: ServiceError | null, r) => (e ? reject(e) : resolve(r)),
      );
      call.on("status", (status) => (replayed = status.metadata.get("x-grok-replayed")[0] === "true"));
    });
    expect(response.result?.$case).toBe("success");
    return { replayed };
  };
  const log = () => readFileSync(path.join(ws, "log.txt"), "utf8").split("\n").filter(Boolean);
  return { append, log };
}

describe("--call-results-* flags", () => {
  it("--call-results-max-entries 1: the newest call id is replayed, an older one runs again", async () => {
    const { append, log } = await serve(["--call-results-max-entries", "1"]);
    await append("a", "a");
    await append("b", "b");
    expect(await append("b", "b")).toEqual({ replayed: true });
    expect(await append("a", "a")).toEqual({ replayed: false });
    expect(log()).toEqual(["a", "b", "a"]);
  });

  it("--call-results-max-age-ms: a kept answer is replayed until it is older than the bound", async () => {
    const { append, log } = await serve(["--call-results-max-age-ms", "5000"]);
    await append("c", "c");
    expect(await append("c", "c")).toEqual({ replayed: true });
    await new Promise((resolve) => setTimeout(resolve, 5200));
    expect(await append("c", "c")).toEqual({ replayed: false });
    expect(log()).toEqual(["c", "c"]);
  });

  it("--call-results-max-entries 0 turns replays off: a repeated call id runs the tool again", async () => {
    const { append, log } = await serve(["--call-results-max-entries", "0"]);
    await append("d", "d");
    expect(await append("d", "d")).toEqual({ replayed: false });
    expect(log()).toEqual(["d", "d"]);
  });
});
