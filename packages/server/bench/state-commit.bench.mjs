// Benchmark: the cost of durable state (issue 23.1). todo_write answers only once its change is on
// disk (temp file, fsync, rename, folder fsync); concurrent calls share writes (group commit).
// Through the real server over loopback: the median latency of todo_write against a call that
// changes no state (list_dir of a tiny folder), and the throughput of todo_write one at a time
// against 32 in flight. Judged: 32 in flight must reach at least 1.5x the one-at-a-time throughput,
// which only holds when commits are grouped (one write per call would serialize them).
// Needs the built packages (npm run build). `--smoke` does a few iterations only, not judged.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { credentials } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient } from "@grok-tools/proto";
import { createToolsServer } from "@grok-tools/server";

const smoke = process.argv.includes("--smoke");
const iterations = smoke ? 10 : 300;
const concurrentCalls = smoke ? 64 : 1200;
const inFlight = 32;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const dir = mkdtempSync(path.join(tmpdir(), "grok-bench-state-"));
writeFileSync(path.join(dir, "a.txt"), "a\n");
const server = createToolsServer({ workspace: dir, stateDir: path.join(dir, ".state") });
const client = new GrokToolsServiceClient(await server.listen("127.0.0.1:0"), credentials.createInsecure());
const execute = promisify(client.executeTool.bind(client));
try {
  const fin = await promisify(client.finalizeToolConfigRequest.bind(client))(
    FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "GrokBuild:todo_write" }, { id: "GrokBuild:list_dir" }] }),
  );
  if (!fin.success) throw new Error(`finalize failed: ${fin.message}`);
  let n = 0;
  const call = async (toolName, input) => {
    const res = await execute(ExecuteToolRequest.fromPartial({ toolName, inputJson: JSON.stringify(input) }));
    if (res.result?.$case !== "success") throw new Error(`${toolName} failed: ${JSON.stringify(res.result)}`);
  };
  const todo = () => call("todo_write", { todos: [{ id: `t${n % 50}`, content: `task ${n++}` }] });
  const list = () => call("list_dir", { target_directory: "." });
  const latency = async (fn) => {
    for (let i = 0; i < 10; i++) await fn();
    const times = [];
    for (let i = 0; i < iterations; i++) {
      const start = process.hrtime.bigint();
      await fn();
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    return median(times);
  };
  const throughput = async (count, parallel) => {
    let next = 0;
    const start = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next++ < count) await todo();
      }),
    );
    return count / (Number(process.hrtime.bigint() - start) / 1e9);
  };
  const listMs = await latency(list);
  const todoMs = await latency(todo);
  console.log(`list_dir (no state change)       median ${listMs.toFixed(2)} ms`);
  console.log(`todo_write (durable before ack)  median ${todoMs.toFixed(2)} ms`);
  const serial = await throughput(iterations, 1);
  const grouped = await throughput(concurrentCalls, inFlight);
  const ratio = grouped / serial;
  console.log(`todo_write one at a time         ${serial.toFixed(0)} calls/s`);
  console.log(`todo_write ${inFlight} in flight            ${grouped.toFixed(0)} calls/s`);
  console.log(`ratio ${ratio.toFixed(2)}x (target >= 1.5x)${smoke ? " [smoke: not judged]" : ""}`);
  if (!smoke && ratio < 1.5) process.exitCode = 1;
} finally {
  client.close();
  await server.shutdown(1000);
  rmSync(dir, { recursive: true, force: true });
}
