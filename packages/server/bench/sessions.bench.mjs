// Benchmark (issue #16): what a routed session (x-grok-session-id) costs. (1) RSS per extra idle
// session, each finalized with a typical toolset and one todo_write done; target ≤ 2 MB. (2) The
// median of one read_file call with 1, 10 and 100 sessions held; target: no growth (≤ 1.5× the
// 1-session median, for noise on a shared machine). Needs the built packages. `--smoke`: 10 sessions.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Metadata, credentials } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient } from "@grok-tools/proto";
import { createToolsServer } from "@grok-tools/server";

const smoke = process.argv.includes("--smoke") || process.env.GROK_SUITE_SMOKE === "1";
const SESSIONS = smoke ? 10 : 200;
const CALLS = smoke ? 20 : 300;
const TOOLS = [
  { id: "GrokBuild:todo_write" },
  { id: "GrokBuild:read_file" },
  { id: "GrokBuild:search_replace" },
  { id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' },
];

function record(check, count, passed, note) {
  if (process.env.GROK_SUITE_REPORT) appendFileSync(process.env.GROK_SUITE_REPORT, JSON.stringify({ check, count, passed, ...(note ? { note } : {}) }) + "\n");
}

const md = (id) => {
  const m = new Metadata();
  m.set("x-grok-session-id", id);
  return m;
};
const unary = (client, method, request, metadata) =>
  new Promise((resolve, reject) => client[method](request, metadata, (error, response) => (error ? reject(error) : resolve(response))));

async function settle() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((r) => setTimeout(r, 100));
  }
}

const dir = mkdtempSync(path.join(tmpdir(), "grok-bench-sessions-"));
mkdirSync(path.join(dir, "ws"));
writeFileSync(path.join(dir, "ws", "a.txt"), "hello\n".repeat(50));
const server = createToolsServer({ workspace: path.join(dir, "ws"), stateDir: path.join(dir, "state"), maxSessions: SESSIONS + 10 });
const client = new GrokToolsServiceClient(await server.listen("127.0.0.1:0"), credentials.createInsecure());

async function openSession(i) {
  const id = `bench-${i}`;
  const fin = await unary(client, "finalizeToolConfigRequest", FinalizeToolServerConfigRequest.fromPartial({ tools: TOOLS }), md(id));
  if (!fin.success) throw new Error(fin.message);
  const todo = ExecuteToolRequest.fromPartial({
    toolName: "todo_write",
    inputJson: JSON.stringify({ merge: false, todos: [{ id: "1", content: `session ${i}`, status: "pending" }] }),
  });
  await unary(client, "executeTool", todo, md(id));
}

async function readMedian(id) {
  const request = ExecuteToolRequest.fromPartial({ toolName: "read_file", inputJson: JSON.stringify({ target_file: "a.txt" }) });
  for (let i = 0; i < 10; i++) await unary(client, "executeTool", request, md(id));
  const times = [];
  for (let i = 0; i < CALLS; i++) {
    const start = process.hrtime.bigint();
    await unary(client, "executeTool", request, md(id));
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

try {
  // Warm everything up (first session, code paths, grpc buffers) before the baseline.
  await openSession(0);
  const perCall = { 1: await readMedian("bench-0") };
  await settle();
  const before = process.memoryUsage();
  for (let i = 1; i < SESSIONS; i++) {
    await openSession(i);
    if (i === 9) perCall[10] = await readMedian("bench-0");
    if (i === 99) perCall[100] = await readMedian("bench-0");
  }
  await settle();
  const after = process.memoryUsage();
  const extra = SESSIONS - 1;
  const rssPerSessionMb = (after.rss - before.rss) / extra / 2 ** 20;
  const heapPerSessionKb = (after.heapUsed - before.heapUsed) / extra / 1024;
  console.log(`sessions: ${SESSIONS} held; per extra idle session: RSS ${rssPerSessionMb.toFixed(3)} MB, heap ${heapPerSessionKb.toFixed(1)} KB`);
  record("sessions: RSS per extra idle session ≤ 2 MB", extra, rssPerSessionMb <= 2, `${rssPerSessionMb.toFixed(3)} MB`);
  for (const [n, ms] of Object.entries(perCall)) console.log(`read_file median with ${n} session(s) held: ${ms.toFixed(3)} ms`);
  const worst = Math.max(...Object.values(perCall)) / perCall[1];
  record(
    "sessions: per-call cost does not grow with sessions (≤ 1.5×)",
    Object.keys(perCall).length,
    worst <= 1.5,
    Object.entries(perCall)
      .map(([n, ms]) => `${n}: ${ms.toFixed(2)} ms`)
      .join(", "),
  );
} finally {
  client.close();
  await server.shutdown(1000);
  rmSync(dir, { recursive: true, force: true });
}
