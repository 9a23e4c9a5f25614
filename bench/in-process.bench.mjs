// Reported, not judged (issue #18): what a tool call costs inside the runtime, with no gRPC at all.
// One Session with GrokBuild's read_file and todo_write, called through Session.execute 64 at a time:
// read_file of a 1-line file against todo_write, the cheapest call. Their difference is what the
// read adds (its file syscalls, hash and output); what the hot-path cases add on top of these is the
// server and the transport. Then one call at a time, as the server runs them (Session.executeNow),
// against the call's work floor (bench/work-floor.mjs) in the same process: back to back, where the
// code stays in the caches, and after a pause, where it does not (what a p50 row's handler pays).
// Run after `npm run build`: `node bench/in-process.bench.mjs`.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { grokBuild } from "@grok-tools/tools-grokbuild";
import { compareLatency, compareThroughput, smoke } from "./harness.mjs";
import { readLikeTheTool, todoLikeTheTool } from "./work-floor.mjs";

/**
 * The pause before each call of the "after a pause" rows: about what a server one call at a time
 * waits between handlers here (a p50 call takes ~0.4 ms, its handler ~0.1 ms). Asleep, not busy:
 * the core runs other work meanwhile, as it does between calls.
 */
const PAUSE_MS = 0.2;
const pauseCell = new Int32Array(new SharedArrayBuffer(4));
const pause = () => {
  Atomics.wait(pauseCell, 0, 0, PAUSE_MS);
};

const base = realpathSync(mkdtempSync(path.join(tmpdir(), "grok-bench-in-process-")));
const session = new Session({ registry: ToolRegistry.of([grokBuild]), workspace: base, stateDir: path.join(base, ".state") });
try {
  const finalized = await session.finalize({ tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:todo_write" }] });
  if (!finalized.ok) throw new Error(finalized.message);
  const oneLine = path.join(base, "one-line.txt");
  writeFileSync(oneLine, "hello from the bench\n");
  const readJson = JSON.stringify({ target_file: "one-line.txt" });
  const todoJson = JSON.stringify({ merge: true, todos: [{ id: "bench", content: "measure the hot path", status: "in_progress" }] });
  // A call of `toolName` that throws unless it succeeded: through Session.execute (always a promise),
  // or as the server calls it, Session.executeNow (an answer made at once comes back without one).
  const caller = (toolName, inputJson, { now = false } = {}) => {
    const request = { toolName, inputJson };
    const check = (outcome) => {
      if (!outcome.ok) throw new Error(`${toolName} failed: ${outcome.error.message}`);
    };
    if (!now) return () => session.execute(request).then(check);
    return () => {
      const outcome = session.executeNow(request);
      return outcome instanceof Promise ? outcome.then(check) : check(outcome);
    };
  };
  await compareThroughput({
    name: "in-process: read_file of a 1-line file vs todo_write, Session.execute, 64 in flight",
    ours: caller("read_file", readJson),
    bare: caller("todo_write", todoJson),
    concurrency: 64,
    note: "todo_write through Session.execute in the same session, 64 in flight",
  });

  const floors = [
    {
      toolName: "read_file",
      subject: "read_file of a 1-line file",
      inputJson: readJson,
      floor: () => readLikeTheTool(readJson, oneLine),
      what: "the read's own work: parse, open, /proc check, fstat, read, close, sha256, JSON",
    },
    {
      toolName: "todo_write",
      subject: "todo_write",
      inputJson: todoJson,
      floor: () => todoLikeTheTool(todoJson),
      what: "the call's own work: parse, check, list, snapshot, summary, JSON, call id",
    },
  ];
  for (const { toolName, subject, inputJson, floor, what } of floors) {
    await compareLatency({
      name: `in-process: ${subject} against its work floor, one at a time, back to back, p50`,
      ours: caller(toolName, inputJson, { now: true }),
      bare: floor,
      unit: "µs",
      note: `the work floor in the same process (${what})`,
    });
    await compareLatency({
      name: `in-process: ${subject} against its work floor, one at a time after ${PAUSE_MS * 1000} µs asleep, p50`,
      ours: caller(toolName, inputJson, { now: true }),
      bare: floor,
      beforeEach: pause,
      // tinybench's round time counts the calls, not the pauses: shorter rounds keep the case near 20 s.
      roundMs: smoke ? 20 : 60,
      unit: "µs",
      note: `the work floor in the same process, each call after the same pause (untimed)`,
    });
  }
} finally {
  await session.close();
  rmSync(base, { recursive: true, force: true });
}
