// Benchmark (issue #16): what a routed session (x-grok-session-id) costs.
// (1) RSS per extra idle session, each finalized with a typical toolset and one todo_write done;
//     target ≤ 2 MB. Measured in this process (a server created here, GC forced before each reading).
// (2) Per-call cost against the number of sessions held: read_file p50 on a server holding 100 warm
//     sessions, called round-robin over all of them, against the same call on a server holding 1
//     session, measured IN THE SAME RUN and interleaved (bench/harness.mjs), both servers in this
//     process; target ≤ 1.5× (no growth; the margin is for noise on a shared machine). 10 sessions
//     vs 1 is reported beside it. Every session is warm before the measurement: finalized, its
//     todo_write done and a few read_file calls made (a session's first read_file records the file
//     in its read tracker and commits its state durably, a one-off cost that is not per call).
// Needs the built packages. `--smoke`: a few sessions and iterations, nothing judged.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Metadata, credentials } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient } from "@grok-tools/proto";
import { createToolsServer } from "@grok-tools/server";
import { compareLatency, smoke } from "../../../bench/harness.mjs";

/** Sessions held for the RSS reading. */
const RSS_SESSIONS = smoke ? 10 : 200;
/** Sessions held by the servers compared per call: the judged one, and the one reported beside it. */
const MANY_SESSIONS = smoke ? 10 : 100;
const SOME_SESSIONS = smoke ? 3 : 10;
/** read_file calls per session before the measurement. */
const WARM_CALLS_PER_SESSION = smoke ? 1 : 3;
const TOOLS = [
  { id: "GrokBuild:todo_write" },
  { id: "GrokBuild:read_file" },
  { id: "GrokBuild:search_replace" },
  { id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' },
];
const FILE_TEXT = "hello\n".repeat(50);

function record(check, count, passed, note) {
  if (process.env.GROK_SUITE_REPORT) appendFileSync(process.env.GROK_SUITE_REPORT, JSON.stringify({ check, count, passed, ...(note ? { note } : {}) }) + "\n");
}

/** Metadata naming a routed session, built once per id (the calls measured reuse it). */
const metadataCache = new Map();
function md(id) {
  let m = metadataCache.get(id);
  if (!m) {
    m = new Metadata();
    m.set("x-grok-session-id", id);
    metadataCache.set(id, m);
  }
  return m;
}
const unary = (client, method, request, metadata) =>
  new Promise((resolve, reject) => client[method](request, metadata, (error, response) => (error ? reject(error) : resolve(response))));

const readRequest = ExecuteToolRequest.fromPartial({ toolName: "read_file", inputJson: JSON.stringify({ target_file: "a.txt" }) });

async function readFile(client, id) {
  const response = await unary(client, "executeTool", readRequest, md(id));
  if (response.result?.$case !== "success") throw new Error(`read_file failed in ${id}: ${JSON.stringify(response.result)}`);
}

/** Opens routed session `id` as a typical agent does: finalize, one todo_write. */
async function openSession(client, id) {
  const fin = await unary(client, "finalizeToolConfigRequest", FinalizeToolServerConfigRequest.fromPartial({ tools: TOOLS }), md(id));
  if (!fin.success) throw new Error(fin.message);
  const todo = ExecuteToolRequest.fromPartial({
    toolName: "todo_write",
    inputJson: JSON.stringify({ merge: false, todos: [{ id: "1", content: `session ${id}`, status: "pending" }] }),
  });
  await unary(client, "executeTool", todo, md(id));
}

async function settle() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** (1) RSS and heap per extra idle session, in this process. */
async function rssPerSession() {
  const dir = mkdtempSync(path.join(tmpdir(), "grok-bench-sessions-"));
  mkdirSync(path.join(dir, "ws"));
  writeFileSync(path.join(dir, "ws", "a.txt"), FILE_TEXT);
  const server = createToolsServer({ workspace: path.join(dir, "ws"), stateDir: path.join(dir, "state"), maxSessions: RSS_SESSIONS + 10 });
  const client = new GrokToolsServiceClient(await server.listen("127.0.0.1:0"), credentials.createInsecure());
  try {
    // The first session warms the code paths and grpc buffers before the reading it is compared with.
    await openSession(client, "rss-0");
    for (let i = 0; i < 10; i++) await readFile(client, "rss-0");
    await settle();
    const before = process.memoryUsage();
    for (let i = 1; i < RSS_SESSIONS; i++) await openSession(client, `rss-${i}`);
    await settle();
    const after = process.memoryUsage();
    const extra = RSS_SESSIONS - 1;
    const rssPerSessionMb = (after.rss - before.rss) / extra / 2 ** 20;
    const heapPerSessionKb = (after.heapUsed - before.heapUsed) / extra / 1024;
    console.log(`sessions: ${RSS_SESSIONS} held; per extra idle session: RSS ${rssPerSessionMb.toFixed(3)} MB, heap ${heapPerSessionKb.toFixed(1)} KB`);
    record("sessions: RSS per extra idle session ≤ 2 MB", extra, rssPerSessionMb <= 2, `${rssPerSessionMb.toFixed(3)} MB`);
  } finally {
    client.close();
    await server.shutdown(1000);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A server holding `count` warm routed sessions, in its own workspace and state folder;
 * `call()` reads a.txt in the next session, round-robin.
 */
async function serverWithSessions(count, prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), `grok-bench-sessions-${prefix}-`));
  mkdirSync(path.join(dir, "ws"));
  writeFileSync(path.join(dir, "ws", "a.txt"), FILE_TEXT);
  const server = createToolsServer({ workspace: path.join(dir, "ws"), stateDir: path.join(dir, "state"), maxSessions: count + 10 });
  const client = new GrokToolsServiceClient(await server.listen("127.0.0.1:0"), credentials.createInsecure());
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  for (const id of ids) await openSession(client, id);
  // Round-robin passes, so that every session has had its one-off first read (which records the
  // file in its read tracker and writes its state) long before the measurement.
  for (let pass = 0; pass < WARM_CALLS_PER_SESSION; pass++) for (const id of ids) await readFile(client, id);
  let next = 0;
  return {
    call: () => {
      const id = ids[next];
      next = (next + 1) % ids.length;
      return readFile(client, id);
    },
    async close() {
      client.close();
      await server.shutdown(1000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * (2) Per-call cost with many sessions held vs one: the servers side by side in this process, so
 * that both sides share one Node process's JIT, GC and CPU scheduling (two server processes differed
 * by up to ±50% from each other with identical contents on this shared machine, which would drown
 * what is measured); what differs is only what each server holds. Interleaved, same run.
 */
async function perCallCost() {
  const started = [];
  try {
    const one = await serverWithSessions(1, "one");
    started.push(one);
    const some = await serverWithSessions(SOME_SESSIONS, "some");
    started.push(some);
    const many = await serverWithSessions(MANY_SESSIONS, "many");
    started.push(many);
    await settle();
    const note = (n) => `read_file p50, ${n} warm sessions called round-robin vs the one session of a 1-session server, same process, interleaved`;
    await compareLatency({
      name: `sessions: per-call cost with ${MANY_SESSIONS} sessions held vs 1`,
      ours: many.call,
      bare: one.call,
      target: { ratio: "<=", value: 1.5 },
      note: note(MANY_SESSIONS),
    });
    await compareLatency({
      name: `sessions: per-call cost with ${SOME_SESSIONS} sessions held vs 1`,
      ours: some.call,
      bare: one.call,
      note: note(SOME_SESSIONS),
    });
  } finally {
    await Promise.all(started.map((s) => s.close()));
  }
}

await rssPerSession();
await perCallCost();
