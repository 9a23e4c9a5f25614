// Benchmark cases of start-up and memory (issue #18): the server's start to its listening line
// against `node -e ''` (Node's own start-up), and the idle RSS of a started server against a bare
// grpc-js server process; alternated runs, medians (bench/harness.mjs).
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { compareRuns } from "./harness.mjs";
import { bareServerScript, root, rssMb, serverArgs, spawnUntilLine, stopChild, tempDir } from "./server-fixture.mjs";

const nodeEmpty = () => {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ["-e", ""]);
  if (result.status !== 0) throw new Error("node -e '' failed");
  return Number(process.hrtime.bigint() - start) / 1e6;
};

/** Starts the server in fresh folders; `measure(child, ms)` gives the number; stops it. */
async function withServer(measure) {
  const temp = tempDir();
  try {
    const ws = path.join(temp.dir, "ws");
    mkdirSync(ws);
    const { child, ms } = await spawnUntilLine(serverArgs(ws, path.join(temp.dir, "state")));
    try {
      return await measure(child, ms);
    } finally {
      await stopChild(child);
    }
  } finally {
    temp.remove();
  }
}

async function withBareServer(measure) {
  const { child, ms } = await spawnUntilLine(["-e", bareServerScript], { cwd: root });
  try {
    return await measure(child, ms);
  } finally {
    await stopChild(child);
  }
}

await compareRuns({
  name: "server start to the listening line",
  ours: () => withServer((_child, ms) => ms),
  bare: nodeEmpty,
  unit: "ms",
  target: { ratio: "<=", value: 4 },
  note: "node -e ''",
});

// Idle: listening, then a second for start-up garbage to be collected the way an idle server would.
const idle = (child) => sleep(1000).then(() => rssMb(child.pid));
await compareRuns({
  name: "idle RSS of the server",
  ours: () => withServer(idle),
  bare: () => withBareServer(idle),
  unit: "MB",
  target: { ours: "<=", value: 80, unit: "MB" },
  note: "a bare grpc-js server process",
});
