// Integration (issue 20): live output of run_terminal_cmd over ExecuteToolStream, through the real
// server (built) and the real client. The first line of a slow loop arrives while it still runs;
// the result stays the chunked form; a call that fails after printing ends with the error in its
// final result and no result chunks; a client that does not ask sees no live chunks; cancelling
// kills the command's whole tree; a client that does not read gets a head+tail with a marker.
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { ErrorCode, StreamDataKind, type ToolStreamChunk } from "@grok-tools/proto";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnServer, type SpawnedServer } from "../src/spawn-server.js";
import { LIVE_OUTPUT_HEADER } from "../src/stream-assembler.js";

jest.setTimeout(120_000);

const LIVE = StreamDataKind.STREAM_DATA_KIND_UNSPECIFIED;
/** The servers' live output cap in this file: small, so that the slow-reader case drops quickly. */
const BUFFER_BYTES = 1024 * 1024;

let root: string;
let server: SpawnedServer;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "gtc-live-"));
  server = await spawnServer({
    workspace: root,
    stateDir: path.join(root, ".state"),
    args: ["--live-output-buffer-bytes", String(BUFFER_BYTES)],
  });
  const finalized = await server.client.finalize({ tools: [{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }] });
  expect(finalized.success).toBe(true);
});
afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

const input = (command: string) => ({ command, description: "live output test", timeout: 110_000 });

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

describe("live output of run_terminal_cmd", () => {
  it("delivers the first line of a slow loop before the command ends, then the authoritative result", async () => {
    const live: Array<{ text: string; offset: number; at: number }> = [];
    let resultAt = 0;
    const pending = server.client
      .executeToolStream("run_terminal_cmd", input("for i in 1 2 3; do echo $i; sleep 1; done"), {
        deadlineMs: 100_000,
        onOutput: (data, offset) => live.push({ text: Buffer.from(data).toString("utf8"), offset, at: Date.now() }),
      })
      .then((result) => {
        resultAt = Date.now();
        return result;
      });
    // Event-driven: wait for the first live chunk, then check the call is still running.
    expect(await eventually(() => live.length > 0, 60_000)).toBe(true);
    expect(resultAt).toBe(0);
    expect(live[0]).toMatchObject({ text: "1\n", offset: 0 });
    const firstAt = live[0]!.at;
    const result = await pending;
    // Two more `sleep 1` follow the first line: the result cannot come sooner than that.
    expect(resultAt - firstAt).toBeGreaterThanOrEqual(1_500);
    expect(live.map((c) => c.text).join("")).toBe("1\n2\n3\n");
    let offset = 0;
    for (const chunk of live) {
      expect(chunk.offset).toBe(offset);
      offset += Buffer.byteLength(chunk.text);
    }
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // The prompt text is the tool's own format, not the raw bytes; the same as the unary call gives.
    const unary = await server.client.executeTool("run_terminal_cmd", input("for i in 1 2 3; do echo $i; done"));
    expect(unary.ok && result.promptText.replace(/\d+(\.\d+)?s/g, "T")).toBe(unary.ok && unary.promptText.replace(/\d+(\.\d+)?s/g, "T"));
    expect(result.output).toMatchObject({ type: "Bash", exit_code: 0, output: "1\n2\n3\n" });
  });

  it("streams the output of a call that then fails, and ends with the error in the final result and no result chunks", async () => {
    const marker = String(100000 + Math.floor(Math.random() * 899999));
    // Prints, then sleeps past the call's deadline (ExecutionOptions.timeout_ms): the runtime answers TIMEOUT.
    const command = `echo started; echo "on stderr" >&2; sleep 303.${marker}`;
    const chunks: Array<{ chunk: ToolStreamChunk; at: number }> = [];
    const request = { toolName: "run_terminal_cmd", inputJson: JSON.stringify(input(command)), options: { timeoutMs: 4_000 } };
    for await (const chunk of server.client.rawExecuteToolStream(request, { metadata: { [LIVE_OUTPUT_HEADER]: "1" }, deadlineMs: 100_000 })) {
      chunks.push({ chunk, at: Date.now() });
    }
    // Live chunks first, with their own contiguous offsets, then the final result alone.
    const final = chunks.at(-1)!;
    expect(final.chunk.chunk?.$case).toBe("finalResult");
    const data = chunks.slice(0, -1).map(({ chunk, at }) => {
      if (chunk.chunk?.$case !== "data") throw new Error(`unexpected ${chunk.chunk?.$case} before the final result`);
      return { ...chunk.chunk.value, at };
    });
    expect(data.map((d) => d.kind)).toEqual(data.map(() => LIVE));
    let offset = 0;
    for (const d of data) {
      expect(d.offset).toBe(offset);
      offset += d.data.length;
    }
    expect(Buffer.concat(data.map((d) => Buffer.from(d.data))).toString("utf8")).toBe("started\non stderr\n");
    // The output was live: it came well before the deadline ended the call.
    expect(final.at - data[0]!.at).toBeGreaterThanOrEqual(1_000);
    if (final.chunk.chunk?.$case !== "finalResult") return;
    expect(final.chunk.chunk.value).toMatchObject({ promptTextSize: 0, outputJsonSize: 0, error: { code: ErrorCode.ERROR_CODE_TIMEOUT } });
    expect(final.chunk.chunk.value.error?.message).toMatch(/timed out after 4000 ms/);
    // The deadline took the command down with the call.
    expect(await eventually(() => processesWith(`303.${marker}`).length === 0, 15_000)).toBe(true);

    // The client reassembles it as the failed call, the live bytes having gone to onOutput only.
    const live: string[] = [];
    const result = await server.client.executeToolStream("run_terminal_cmd", input(`echo started; sleep 304.${marker}`), {
      timeoutMs: 4_000,
      deadlineMs: 100_000,
      onOutput: (bytes) => live.push(Buffer.from(bytes).toString("utf8")),
    });
    expect(live.join("")).toBe("started\n");
    expect(result).toMatchObject({ ok: false, error: { code: ErrorCode.ERROR_CODE_TIMEOUT } });
    expect(await eventually(() => processesWith(`304.${marker}`).length === 0, 15_000)).toBe(true);
  });

  it("sends no live chunks to a client that did not ask (the chunked-unary form)", async () => {
    const chunks: ToolStreamChunk[] = [];
    for await (const chunk of server.client.rawExecuteToolStream({ toolName: "run_terminal_cmd", inputJson: JSON.stringify(input("echo one; echo two")) })) {
      chunks.push(chunk);
    }
    const data = chunks.filter((c) => c.chunk?.$case === "data").map((c) => (c.chunk?.$case === "data" ? c.chunk.value.kind : -1));
    expect(data).not.toContain(LIVE);
    expect(data.length).toBeGreaterThan(0);
    expect(chunks.at(-1)?.chunk?.$case).toBe("finalResult");
  });

  it("kills the command's whole tree when the client cancels the stream", async () => {
    const marker = String(100000 + Math.floor(Math.random() * 899999));
    // A background child, a setsid grandchild and the foreground sleep all carry the marker.
    const command = `bash -c 'sleep 300.${marker} & setsid sleep 301.${marker} & echo ready; sleep 302.${marker}'`;
    const controller = new AbortController();
    let ready = false;
    const pending = server.client.executeToolStream("run_terminal_cmd", input(command), {
      signal: controller.signal,
      onOutput: (data) => {
        if (Buffer.from(data).toString().includes("ready")) ready = true;
      },
    });
    pending.catch(() => undefined);
    expect(await eventually(() => ready && processesWith(`.${marker}`).length >= 3, 60_000)).toBe(true);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 1 });
    expect(await eventually(() => processesWith(`.${marker}`).length === 0, 30_000)).toBe(true);
  });

  it("drops the middle of the live output with a marker when the client does not read, and the result is whole", async () => {
    const done = path.join(root, `printed-${Date.now()}`);
    const total = 16 * BUFFER_BYTES;
    // 16 MiB of numbered lines, then a file saying the command has printed everything.
    const command = `seq -w 1 ${total / 8} | head -c ${total}; touch ${done}`;
    const request = { toolName: "run_terminal_cmd", inputJson: JSON.stringify(input(command)) };
    const stream = server.client.rawExecuteToolStream(request, { metadata: { [LIVE_OUTPUT_HEADER]: "1" }, deadlineMs: 100_000 });
    // Read one chunk, then stop reading until the command has printed all of it.
    const first = await stream.next();
    expect(first.done).toBe(false);
    expect(await eventually(() => existsSync(done), 90_000)).toBe(true);
    const chunks: ToolStreamChunk[] = [first.value as ToolStreamChunk];
    for await (const chunk of stream) chunks.push(chunk);
    const liveBytes: Buffer[] = [];
    let offset = 0;
    for (const chunk of chunks) {
      if (chunk.chunk?.$case !== "data" || chunk.chunk.value.kind !== LIVE) continue;
      expect(chunk.chunk.value.offset).toBe(offset);
      offset += chunk.chunk.value.data.length;
      liveBytes.push(Buffer.from(chunk.chunk.value.data));
    }
    const text = Buffer.concat(liveBytes).toString("latin1");
    // seq -w pads to 7 digits: 8-byte lines, the last one whole at exactly 16 MiB.
    expect(text.startsWith("0000001\n0000002\n")).toBe(true);
    expect(text.endsWith(`${total / 8}\n`)).toBe(true);
    expect(text).toMatch(
      /\n\[grok-tools: \d+ bytes of live output dropped here because the client read more slowly than the tool printed; the final result is not affected\]\n/,
    );
    expect(text.length).toBeLessThan(total);
    // Around the markers, every byte is the command's own, in order: a head of its output, then pieces of it
    // that end with its end (what queued while the client did not read goes out as encoded when queued).
    const expected = Array.from({ length: total / 8 }, (_, i) => `${String(i + 1).padStart(7, "0")}\n`).join("");
    const parts = text.split(/\n\[grok-tools: \d+ bytes of live output dropped here[^\n]*\]\n/);
    expect(expected.startsWith(parts[0]!)).toBe(true);
    let from = parts[0]!.length;
    for (const part of parts.slice(1)) {
      const at = expected.indexOf(part, from);
      expect(at).toBeGreaterThanOrEqual(from);
      from = at + part.length;
    }
    expect(from).toBe(expected.length);
    const final = chunks.at(-1)?.chunk;
    expect(final?.$case).toBe("finalResult");
    if (final?.$case !== "finalResult") return;
    expect(final.value.error).toBeUndefined();
    const json = Buffer.concat(
      chunks.flatMap((c) =>
        c.chunk?.$case === "data" && c.chunk.value.kind === StreamDataKind.STREAM_DATA_KIND_OUTPUT_JSON ? [Buffer.from(c.chunk.value.data)] : [],
      ),
    ).toString("utf8");
    expect(JSON.parse(json)).toMatchObject({ type: "Bash", exit_code: 0, total_bytes: total, truncated: true });
  });
});
