// --gitignore: the host switch behind the reference's GitignoreFilter / RespectGitignore.
import { afterEach, describe, expect, it } from "@jest/globals";
import { credentials, type ServiceError } from "@grpc/grpc-js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient, type ExecuteToolResponse } from "@grok-tools/proto";
import { createToolsServer, type ToolsServer } from "@grok-tools/server";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function readIgnored(mode: "off" | "edits" | "all"): Promise<{ read: ExecuteToolResponse; edit: ExecuteToolResponse }> {
  const dir = mkdtempSync(path.join(tmpdir(), "grok-gitignore-"));
  writeFileSync(path.join(dir, ".gitignore"), "secret.env\n");
  writeFileSync(path.join(dir, "secret.env"), "TOKEN=1\n");
  const server: ToolsServer = createToolsServer({ workspace: dir, stateDir: path.join(dir, ".state"), gitignore: mode });
  const client = new GrokToolsServiceClient(await server.listen("127.0.0.1:0"), credentials.createInsecure());
  cleanups.push(async () => {
    client.close();
    await server.shutdown(500);
    rmSync(dir, { recursive: true, force: true });
  });
  const call = <T>(fn: (cb: (e: ServiceError | null, r: T) => void) => void) => new Promise<T>((resolve, reject) => fn((e, r) => (e ? reject(e) : resolve(r))));
  await call((cb) =>
    client.finalizeToolConfigRequest(
      FinalizeToolServerConfigRequest.fromPartial({
        tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:search_replace", paramsJson: '{"skip_read_before_edit":true}' }],
      }),
      cb,
    ),
  );
  const read = await call<ExecuteToolResponse>((cb) =>
    client.executeTool(ExecuteToolRequest.fromPartial({ toolName: "read_file", inputJson: '{"target_file":"secret.env"}' }), cb),
  );
  const edit = await call<ExecuteToolResponse>((cb) =>
    client.executeTool(
      ExecuteToolRequest.fromPartial({ toolName: "search_replace", inputJson: '{"file_path":"secret.env","old_string":"1","new_string":"2"}' }),
      cb,
    ),
  );
  return { read, edit };
}

describe("--gitignore", () => {
  it("off: ignored files are read and edited", async () => {
    const { read, edit } = await readIgnored("off");
    expect(read.result?.$case).toBe("success");
    expect(edit.result?.$case).toBe("success");
  });

  it("edits: search_replace refuses an ignored file, read_file still reads it", async () => {
    const { read, edit } = await readIgnored("edits");
    expect(read.result?.$case).toBe("success");
    expect(edit.result).toMatchObject({ $case: "error", value: { message: "Error: secret.env is ignored by .gitignore and cannot be edited." } });
  });

  it("all: read_file refuses it too", async () => {
    const { read } = await readIgnored("all");
    expect(read.result).toMatchObject({
      $case: "error",
      value: { message: expect.stringMatching(/^Error: .*secret\.env is ignored by \.gitignore and cannot be read\.$/) },
    });
  });
});
