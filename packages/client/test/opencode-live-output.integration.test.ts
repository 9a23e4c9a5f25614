// Integration (issue 20): live output of OpenCode:bash over ExecuteToolStream, through the real
// server (built) and the real client with the `x-grok-live-output: 1` header. The first line of a
// slow loop arrives while the command still runs, with exact offsets, then the authoritative result;
// cancelling the live stream kills the command's whole tree.
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { StreamDataKind, type ToolStreamChunk } from "@grok-tools/proto";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnServer, type SpawnedServer } from "../src/spawn-server.js";
import { LIVE_OUTPUT_HEADER } from "../src/stream-assembler.js";

jest.setTimeout(120_000);

const LIVE = StreamDataKind.STREAM_DATA_KIND_UNSPECIFIED;

let root: string;
let server: SpawnedServer;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "gtc-oc-live-"));
  server = await spawnServer({ workspace: root, stateDir: path.join(root, ".state") });
  const finalized = await server.client.finalize({ tools: [{ id: "OpenCode:bash" }] });
  expect(finalized.success).toBe(true);
});
afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

const request = (command: string) => ({ toolName: "bash", inputJson: JSON.stringify({ command, description: "live output test" }) });

/** Processes whose command line holds `marker`. */
function processesWith(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe("live output of OpenCode:bash", () => {
  it("streams the first line of a slow loop before the command ends, then the result", async () => {
    const stream = server.client.rawExecuteToolStream(request("for i in 1 2 3; do echo $i; sleep 1; done"), {
      metadata: { [LIVE_OUTPUT_HEADER]: "1" },
      deadlineMs: 100_000,
    });
    const chunks: Array<{ chunk: ToolStreamChunk; at: number }> = [];
    for await (const chunk of stream) chunks.push({ chunk, at: Date.now() });
    const live = chunks.filter(({ chunk }) => chunk.chunk?.$case === "data" && chunk.chunk.value.kind === LIVE);
    const finalAt = chunks.at(-1)!.at;
    expect(chunks.at(-1)?.chunk.chunk?.$case).toBe("finalResult");
    expect(live.length).toBeGreaterThan(0);
    // The first live chunk came before the two remaining `sleep 1` had run.
    expect(finalAt - live[0]!.at).toBeGreaterThanOrEqual(1_500);
    let offset = 0;
    const text: string[] = [];
    for (const { chunk } of live) {
      if (chunk.chunk?.$case !== "data") continue;
      expect(chunk.chunk.value.offset).toBe(offset);
      offset += chunk.chunk.value.data.length;
      text.push(Buffer.from(chunk.chunk.value.data).toString("utf8"));
    }
    expect(text[0]).toBe("1\n");
    expect(text.join("")).toBe("1\n2\n3\n");
    const final = chunks.at(-1)!.chunk.chunk;
    if (final?.$case === "finalResult") expect(final.value.error).toBeUndefined();
  });

  it("reassembles the same result through the client's executeToolStream", async () => {
    const live: string[] = [];
    const result = await server.client.executeToolStream(
      "bash",
      { command: "echo one; echo two", description: "live output test" },
      {
        deadlineMs: 100_000,
        onOutput: (data) => live.push(Buffer.from(data).toString("utf8")),
      },
    );
    expect(live.join("")).toBe("one\ntwo\n");
    expect(result.ok && result.promptText).toBe("one\ntwo\n");
    expect(result.ok && result.output).toMatchObject({ type: "Bash", exit_code: 0, output: "one\ntwo\n" });
  });

  it("kills the command's whole tree when the client cancels the live stream", async () => {
    const marker = String(100000 + Math.floor(Math.random() * 899999));
    // A background child, a setsid grandchild and the foreground sleep all carry the marker.
    const command = `bash -c 'sleep 300.${marker} & setsid sleep 301.${marker} & echo ready; sleep 302.${marker}'`;
    const controller = new AbortController();
    let ready = false;
    const pending = server.client.executeToolStream(
      "bash",
      { command, description: "live output test" },
      {
        signal: controller.signal,
        deadlineMs: 100_000,
        onOutput: (data) => {
          if (Buffer.from(data).toString().includes("ready")) ready = true;
        },
      },
    );
    pending.catch(() => undefined);
    // Live output proves the command runs; the three sleepers prove its tree is complete.
    expect(await eventually(() => ready && processesWith(`.${marker}`).length >= 3, 60_000)).toBe(true);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 1 });
    expect(await eventually(() => processesWith(`.${marker}`).length === 0, 30_000)).toBe(true);
  });
});
