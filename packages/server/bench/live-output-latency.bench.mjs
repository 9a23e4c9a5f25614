// Benchmark (issue 20): how soon a line a command prints reaches an ExecuteToolStream client as
// live output. The command prints its wall clock (`date +%s%N`) every 100 ms; the client, with
// `x-grok-live-output: 1`, subtracts it from its own clock when the chunk arrives. Prints the
// median, p95 and max; the target is p95 <= 50 ms. Needs the built packages. `--smoke`: 5 lines.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { credentials, Metadata } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient, StreamDataKind } from "@grok-tools/proto";
import { createToolsServer } from "@grok-tools/server";

const smoke = process.argv.includes("--smoke");
const lines = smoke ? 5 : 100;
const TARGET_P95_MS = 50;

const dir = mkdtempSync(path.join(tmpdir(), "grok-bench-live-"));
const server = createToolsServer({ workspace: dir, stateDir: path.join(dir, ".state") });
const address = await server.listen("127.0.0.1:0");
const client = new GrokToolsServiceClient(address, credentials.createInsecure());
try {
  const fin = await promisify(client.finalizeToolConfigRequest.bind(client))(
    FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }] }),
  );
  if (!fin.success) throw new Error(`finalize failed: ${fin.message}`);
  const command = `for i in $(seq ${lines}); do date +%s%N; sleep 0.1; done`;
  const request = ExecuteToolRequest.fromPartial({
    toolName: "run_terminal_cmd",
    inputJson: JSON.stringify({ command, description: "bench", timeout: 120000 }),
  });
  const metadata = new Metadata();
  metadata.set("x-grok-live-output", "1");
  const latencies = [];
  let pending = "";
  let final;
  for await (const chunk of client.executeToolStream(request, metadata)) {
    const arrivedNs = BigInt(Date.now()) * 1_000_000n;
    if (chunk.chunk?.$case === "finalResult") final = chunk.chunk.value;
    if (chunk.chunk?.$case !== "data" || chunk.chunk.value.kind !== StreamDataKind.STREAM_DATA_KIND_UNSPECIFIED) continue;
    pending += Buffer.from(chunk.chunk.value.data).toString("utf8");
    const complete = pending.split("\n");
    pending = complete.pop();
    for (const line of complete) latencies.push(Number(arrivedNs - BigInt(line.trim())) / 1e6);
  }
  if (!final || final.error) throw new Error(`the call failed: ${JSON.stringify(final)}`);
  if (latencies.length !== lines) throw new Error(`received ${latencies.length} live lines, expected ${lines}`);
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const p95 = at(0.95);
  console.log(`live output latency over ${lines} lines: median ${at(0.5).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms`);
  console.log(`target p95 <= ${TARGET_P95_MS} ms${smoke ? " [smoke: not judged]" : p95 <= TARGET_P95_MS ? " (met)" : " (MISSED)"}`);
  if (!smoke && p95 > TARGET_P95_MS) process.exitCode = 1;
} finally {
  client.close();
  await server.shutdown(1000);
  rmSync(dir, { recursive: true, force: true });
}
