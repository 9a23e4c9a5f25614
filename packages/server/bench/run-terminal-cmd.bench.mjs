// Benchmark: run_terminal_cmd of `true` through the real server and client stubs, against the bare
// operation measured in the same run: spawning `bash -c true` directly plus one empty gRPC round
// trip (a grpc.health.v1 Check). Prints medians and the ratio; the target is ≤ 1.5×.
// Needs the built packages (npm run build). `--smoke` does a few iterations only.
//
// Two paces. Judged: calls 100 ms apart, the latency an agent sees (its model thinks for far
// longer than that between calls); every command still gets a PID namespace of its own, made
// ahead of the call by the session's spare launchers. Reported: back-to-back calls, a
// saturation test: with no pause, making the next launcher competes for the same two cores with
// the running command, and the namespace's extra fork and execs show (see docs/decisions.md).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { credentials, loadPackageDefinition } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import healthCheck from "grpc-health-check";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient } from "@grok-tools/proto";
import { createToolsServer } from "@grok-tools/server";
import { record } from "../../../bench/harness.mjs";

const smoke = process.argv.includes("--smoke");
const iterations = smoke ? 5 : 200;
const warmup = smoke ? 2 : 20;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(fn, gapMs = 0) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < iterations; i++) {
    if (gapMs > 0) await sleep(gapMs);
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

const bashTrue = () =>
  new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", "true"], { stdio: ["ignore", "pipe", "pipe"] });
    child.on("error", reject);
    child.on("close", resolve);
  });

const dir = mkdtempSync(path.join(tmpdir(), "grok-bench-"));
const server = createToolsServer({ workspace: dir, stateDir: path.join(dir, ".state") });
const address = await server.listen("127.0.0.1:0");
const client = new GrokToolsServiceClient(address, credentials.createInsecure());
const pkg = loadPackageDefinition(loadSync(healthCheck.protoPath));
const health = new pkg.grpc.health.v1.Health(address, credentials.createInsecure());
try {
  const fin = await promisify(client.finalizeToolConfigRequest.bind(client))(
    FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }] }),
  );
  if (!fin.success) throw new Error(`finalize failed: ${fin.message}`);
  const check = promisify(health.check.bind(health));
  const execute = promisify(client.executeTool.bind(client));
  const request = ExecuteToolRequest.fromPartial({ toolName: "run_terminal_cmd", inputJson: JSON.stringify({ command: "true", description: "bench" }) });
  const runTool = async () => {
    const res = await execute(request);
    if (res.result?.$case !== "success") throw new Error(`run_terminal_cmd failed: ${JSON.stringify(res.result)}`);
  };
  let judged;
  for (const gapMs of [100, 0]) {
    const spawnMs = await measure(bashTrue, gapMs);
    const rpcMs = await measure(() => check({ service: "" }), gapMs);
    const toolMs = await measure(runTool, gapMs);
    const ratio = toolMs / (spawnMs + rpcMs);
    judged ??= ratio;
    // The rows of `npm run bench`'s table (bench/harness.mjs); the paced one is judged.
    record({
      name: `run_terminal_cmd \`true\` (${gapMs === 0 ? "back-to-back" : `${gapMs} ms apart`}), median`,
      ours: toolMs,
      bare: spawnMs + rpcMs,
      unit: "ms",
      ...(gapMs !== 0 ? { target: { ratio: "<=", value: 1.5 } } : {}),
      note: "bash -c true spawned + empty gRPC call",
    });
    const pace = gapMs === 0 ? "back-to-back" : `${gapMs} ms apart`;
    console.log(`[${pace}] bash -c true (direct spawn)      median ${spawnMs.toFixed(2)} ms`);
    console.log(`[${pace}] empty gRPC round trip            median ${rpcMs.toFixed(2)} ms`);
    console.log(`[${pace}] run_terminal_cmd "true" via gRPC median ${toolMs.toFixed(2)} ms`);
    console.log(
      `[${pace}] ratio tool / (spawn + rpc) = ${ratio.toFixed(2)}x${gapMs !== 0 ? ` (target <= 1.5x)${smoke ? " [smoke: not judged]" : ""}` : " (reported)"}`,
    );
  }
  if (!smoke && judged > 1.5) process.exitCode = 1;
} finally {
  health.close();
  client.close();
  await server.shutdown(1000);
  rmSync(dir, { recursive: true, force: true });
}
