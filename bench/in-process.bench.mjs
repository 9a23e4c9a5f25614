// Reported, not judged (issue #18): what a tool call costs inside the runtime, with no gRPC at all.
// One Session with GrokBuild's read_file and todo_write, called through Session.execute 64 at a time:
// read_file of a 1-line file against todo_write, the cheapest call. Their difference is what the
// read adds (its file syscalls, hash and output); what the hot-path cases add on top of these is the
// server and the transport. Run after `npm run build`: `node bench/in-process.bench.mjs`.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { grokBuild } from "@grok-tools/tools-grokbuild";
import { compareThroughput } from "./harness.mjs";

const base = realpathSync(mkdtempSync(path.join(tmpdir(), "grok-bench-in-process-")));
const session = new Session({ registry: ToolRegistry.of([grokBuild]), workspace: base, stateDir: path.join(base, ".state") });
try {
  const finalized = await session.finalize({ tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:todo_write" }] });
  if (!finalized.ok) throw new Error(finalized.message);
  writeFileSync(path.join(base, "one-line.txt"), "hello from the bench\n");
  const call = (toolName, input) => {
    const request = { toolName, inputJson: JSON.stringify(input) };
    return async () => {
      const outcome = await session.execute(request);
      if (!outcome.ok) throw new Error(`${toolName} failed: ${outcome.error.message}`);
    };
  };
  await compareThroughput({
    name: "in-process: read_file of a 1-line file vs todo_write, Session.execute, 64 in flight",
    ours: call("read_file", { target_file: "one-line.txt" }),
    bare: call("todo_write", { merge: true, todos: [{ id: "bench", content: "measure the hot path", status: "in_progress" }] }),
    concurrency: 64,
    note: "todo_write through Session.execute in the same session, 64 in flight",
  });
} finally {
  await session.close();
  rmSync(base, { recursive: true, force: true });
}
