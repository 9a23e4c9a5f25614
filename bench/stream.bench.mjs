// Benchmark case of a large stream (issue #18): ExecuteToolStream of 64 MiB of live output
// (run_terminal_cmd `cat` of a 64 MiB file, `x-grok-live-output: 1`) against a bare grpc-js server
// stream of the same bytes in the same run: a server process with nothing of ours whose one
// server-streaming method spawns the same `cat` and pipes its stdout chunks out as messages. Both
// sides start a process, read the same file and move the same bytes over one local HTTP/2
// connection; the difference is our tool, the protobuf framing of chunks and the final result.
// Alternated runs, medians (bench/harness.mjs). `--smoke`: 4 MiB, one run each.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Client, credentials, Metadata } from "@grpc/grpc-js";
import { ExecuteToolRequest, MAX_MESSAGE_BYTES, StreamDataKind } from "@grok-tools/proto";
import { compareRuns, median, record, selected, smoke } from "./harness.mjs";
import { bareNodeArgs, cpuMs, gcStats, peakRssMb, resetPeakRss, root, spawnUntilLine, startServer, stopChild } from "./server-fixture.mjs";

const NAME = "ExecuteToolStream of 64 MiB of live output, median";
const SIZE = smoke ? 4 * 1024 * 1024 : 64 * 1024 * 1024;

// The bare side: raw bytes in, raw bytes out (no protobuf), one method, the same `cat` as ours.
const bareStreamScript = `
const grpc = require("@grpc/grpc-js");
const { spawn } = require("node:child_process");
const id = (b) => b;
const service = {
  stream: { path: "/bench.Bare/Stream", requestStream: false, responseStream: true,
    requestSerialize: id, requestDeserialize: id, responseSerialize: id, responseDeserialize: id },
};
// Stopped with SIGTERM: exiting normally lets a --cpu-prof in GROK_BENCH_BARE_NODE_ARGS write its profile.
process.on("SIGTERM", () => process.exit(0));
const server = new grpc.Server({ "grpc.max_send_message_length": ${MAX_MESSAGE_BYTES} });
server.addService(service, {
  stream(call) {
    const cat = spawn("cat", [call.request.toString("utf8")], { stdio: ["ignore", "pipe", "inherit"] });
    cat.stdout.pipe(call);
  },
});
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) throw err;
  process.stdout.write(JSON.stringify({ event: "listening", address: "127.0.0.1:" + port }) + "\\n");
});
`;

if (selected(NAME)) {
  // The live buffer is raised above the size (as test/interop/run.sh does) so that a client that
  // falls behind never makes the server drop the middle: both sides deliver every byte.
  const server = await startServer({
    tools: [{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }],
    extraArgs: ["--live-output-buffer-bytes", String(SIZE + 32 * 1024 * 1024)],
  });
  const bare = await spawnUntilLine([...bareNodeArgs(), "-e", bareStreamScript], { cwd: root });
  const bareClient = new Client(JSON.parse(bare.line).address, credentials.createInsecure(), { "grpc.max_receive_message_length": MAX_MESSAGE_BYTES });
  try {
    const file = path.join(server.workspace, "payload.bin");
    writeFileSync(file, randomBytes(SIZE));
    const request = ExecuteToolRequest.fromPartial({
      toolName: "run_terminal_cmd",
      inputJson: JSON.stringify({ command: "cat payload.bin", description: "bench: stream the payload", timeout: 600000 }),
    });

    const ours = async () => {
      const metadata = new Metadata();
      metadata.set("x-grok-live-output", "1");
      const start = process.hrtime.bigint();
      let live = 0;
      let final;
      for await (const chunk of server.client.executeToolStream(request, metadata)) {
        if (chunk.chunk?.$case === "finalResult") final = chunk.chunk.value;
        else if (chunk.chunk?.$case === "data" && chunk.chunk.value.kind === StreamDataKind.STREAM_DATA_KIND_UNSPECIFIED) live += chunk.chunk.value.data.length;
      }
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (!final || final.error) throw new Error(`the streamed call failed: ${JSON.stringify(final).slice(0, 500)}`);
      if (live !== SIZE) throw new Error(`ours streamed ${live} live bytes, expected ${SIZE}`);
      return ms;
    };
    const bareRun = () =>
      new Promise((resolve, reject) => {
        const start = process.hrtime.bigint();
        let received = 0;
        const call = bareClient.makeServerStreamRequest(
          "/bench.Bare/Stream",
          (b) => b,
          (b) => b,
          Buffer.from(file, "utf8"),
        );
        call.on("data", (b) => (received += b.length));
        call.on("error", reject);
        call.on("status", (status) => {
          if (status.code !== 0) return reject(new Error(`bare stream: ${status.details}`));
          if (received !== SIZE) return reject(new Error(`bare streamed ${received} bytes, expected ${SIZE}`));
          resolve(Number(process.hrtime.bigint() - start) / 1e6);
        });
      });
    // Sanity and warm-up of both (JIT, connection windows), not recorded.
    await ours();
    await bareRun();
    // Reported with the judged row, from the same runs: each server's CPU (user + system) and peak
    // RSS during a run, the client's CPU (this process: grpc-js and, for ours, the generated
    // decoder), and with GROK_BENCH_GC_STATS=1 each server's collections per run. They show where
    // ours spends what the bare stream does not (docs/benchmarks-history.md, thirteenth pass).
    const usage = { ours: { cpu: [], peak: [], client: [] }, bare: { cpu: [], peak: [], client: [] } };
    const gcBefore = { ours: await gcStats(server.child.pid), bare: await gcStats(bare.child.pid) };
    const measured = (side, pid, run) => async () => {
      resetPeakRss(pid);
      const cpuBefore = cpuMs(pid);
      const clientBefore = process.cpuUsage();
      const ms = await run();
      const client = process.cpuUsage(clientBefore);
      usage[side].cpu.push(cpuMs(pid) - cpuBefore);
      usage[side].client.push((client.user + client.system) / 1000);
      usage[side].peak.push(peakRssMb(pid));
      return ms;
    };
    const runs = smoke ? 1 : 7;
    await compareRuns({
      name: NAME,
      ours: measured("ours", server.child.pid, ours),
      bare: measured("bare", bare.child.pid, bareRun),
      unit: "ms",
      target: { ratio: "<=", value: 2 },
      runs,
      note: "bare grpc-js server stream of the same bytes (spawned cat piped out)",
    });
    record({
      name: "ExecuteToolStream of 64 MiB: server CPU per run, median",
      ours: median(usage.ours.cpu),
      bare: median(usage.bare.cpu),
      unit: "ms CPU/run",
      note: "the bare stream server's CPU per run (user + system, same runs)",
    });
    record({
      name: "ExecuteToolStream of 64 MiB: server peak RSS during a run, median",
      ours: median(usage.ours.peak),
      bare: median(usage.bare.peak),
      unit: "MB",
      note: "the bare stream server's peak RSS during a run (same runs)",
    });
    record({
      name: "ExecuteToolStream of 64 MiB: client CPU per run, median",
      ours: median(usage.ours.client),
      bare: median(usage.bare.client),
      unit: "ms CPU/run",
      note: "the bench process receiving the bare stream (raw bytes, no decoding), same runs",
    });
    for (const [side, pid] of [
      ["ours", server.child.pid],
      ["bare", bare.child.pid],
    ]) {
      const after = await gcStats(pid);
      const before = gcBefore[side];
      if (!before || !after) continue;
      console.log(
        `    ${side}: ${((after.scavenges - before.scavenges) / runs).toFixed(1)} scavenges and ${((after.markCompacts - before.markCompacts) / runs).toFixed(1)} mark-compacts per run, ` +
          `${((after.scavengeMs + after.markCompactMs + after.otherMs - before.scavengeMs - before.markCompactMs - before.otherMs) / runs).toFixed(1)} ms of GC pause per run`,
      );
    }
  } finally {
    bareClient.close();
    await stopChild(bare.child);
    await server.close();
  }
}
