/**
 * The leak check shared by the unit test (10 commands) and the stress run (100): timed-out
 * commands that start a setsid grandchild and a pipe-holding grandchild, then a census of
 * processes carrying the run's marker.
 */
import { processesWith, startHarness } from "../shell/helpers.js";

/** Result of one leak check. */
export interface LeakReport {
  leftover: number[];
  allTimedOut: boolean;
  slowestCallMs: number;
}

/** Runs `commands` timed-out commands, `concurrency` at a time, and counts what is left. */
export async function runLeakCheck({ commands, concurrency, timeoutMs }: { commands: number; concurrency: number; timeoutMs: number }): Promise<LeakReport> {
  const marker = `leakcheck${process.pid}x${Date.now()}`;
  // Default params: a foreground `&` is allowed, as models use it.
  const h = await startHarness();
  let allTimedOut = true;
  let slowest = 0;
  try {
    let next = 0;
    const worker = async () => {
      while (next < commands) {
        const i = next++;
        const command = `(setsid bash -c 'sleep 1000; : ${marker}s${i}' &); (bash -c 'sleep 1000; : ${marker}p${i}' &); bash -c 'sleep 1000; : ${marker}m${i}'`;
        const started = Date.now();
        const r = await h.call("run_terminal_cmd", { command, description: "leak", timeout: timeoutMs });
        slowest = Math.max(slowest, Date.now() - started);
        if (!r.ok || JSON.parse(r.outputJson).signal !== "timeout") allTimedOut = false;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await h.close();
  }
  return { leftover: await processesWith(marker), allTimedOut, slowestCallMs: slowest };
}
