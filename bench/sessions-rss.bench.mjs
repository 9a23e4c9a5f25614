// Benchmark cases of memory per routed session (issue #18, sessions of #16): the RSS of the real
// server process (the built bin, measured from outside in /proc) holding 1, 10 and 100 routed
// sessions (`x-grok-session-id`), each finalized with a small toolset and one todo_write done, and
// the MB each extra session costs ((RSS at 100 - RSS at 1) / 99, target ≤ 2 MB). The bare side of
// the 1/10/100 rows is the same server, same run, idle with no routed session (the growth is the
// ratio). Several server processes, medians (bench/harness.mjs).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { credentials, Metadata } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient } from "@grok-tools/proto";
import { median, record, selected, smoke } from "./harness.mjs";
import { rssMb, serverArgs, spawnUntilLine, stopChild, tempDir } from "./server-fixture.mjs";

const COUNTS = smoke ? [1, 3, 10] : [1, 10, 100];
const RUNS = smoke ? 1 : 3;
const TOOLS = [{ id: "GrokBuild:todo_write" }, { id: "GrokBuild:read_file" }];
const PER_SESSION = "RSS per extra routed session";

const rowName = (n) => `RSS of the server with ${n} routed session${n === 1 ? "" : "s"}`;
const wanted = COUNTS.some((n) => selected(rowName(n))) || selected(PER_SESSION);

const sessionMetadata = (id) => {
  const m = new Metadata();
  m.set("x-grok-session-id", id);
  return m;
};

/** RSS after the server has settled for a second (start-up garbage collected as an idle server would). */
const settledRss = async (pid) => {
  await sleep(1000);
  return rssMb(pid);
};

/** One server process: its idle RSS, then its RSS with each count of sessions opened. */
async function oneRun() {
  const temp = tempDir();
  const ws = path.join(temp.dir, "ws");
  mkdirSync(ws);
  const { child, line } = await spawnUntilLine(serverArgs(ws, path.join(temp.dir, "state")));
  const client = new GrokToolsServiceClient(JSON.parse(line).address, credentials.createInsecure());
  const finalize = promisify(client.finalizeToolConfigRequest.bind(client));
  const execute = promisify(client.executeTool.bind(client));
  try {
    const result = { idle: await settledRss(child.pid) };
    let opened = 0;
    for (const count of COUNTS) {
      for (; opened < count; opened++) {
        const md = sessionMetadata(`bench-${opened}`);
        const fin = await finalize(FinalizeToolServerConfigRequest.fromPartial({ tools: TOOLS }), md);
        if (!fin.success) throw new Error(`finalize of session ${opened} failed: ${fin.message}`);
        const todo = ExecuteToolRequest.fromPartial({
          toolName: "todo_write",
          inputJson: JSON.stringify({ merge: false, todos: [{ id: "1", content: `session ${opened}`, status: "pending" }] }),
        });
        const res = await execute(todo, md);
        if (res.result?.$case !== "success") throw new Error(`todo_write in session ${opened} failed: ${JSON.stringify(res.result)}`);
      }
      result[count] = await settledRss(child.pid);
    }
    return result;
  } finally {
    client.close();
    await stopChild(child);
    temp.remove();
  }
}

if (wanted) {
  const runs = [];
  for (let r = 0; r < RUNS; r++) runs.push(await oneRun());
  const idle = median(runs.map((r) => r.idle));
  for (const n of COUNTS) {
    record({ name: rowName(n), ours: median(runs.map((r) => r[n])), bare: idle, unit: "MB", note: "the same server idle, no routed session" });
  }
  const [first, last] = [COUNTS[0], COUNTS.at(-1)];
  record({
    name: PER_SESSION,
    ours: median(runs.map((r) => (r[last] - r[first]) / (last - first))),
    bare: NaN,
    unit: "MB",
    target: { ours: "<=", value: 2, unit: "MB" },
    note: `(RSS at ${last} − RSS at ${first}) / ${last - first}`,
  });
}
