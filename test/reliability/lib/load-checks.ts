/**
 * Load checks through the real server: many concurrent calls mixing read_file, grep,
 * search_replace and run_terminal_cmd (0 unexpected errors, no lost edit, memory back to its idle
 * level: live heap, native memory, descriptors and RSS, see docs/reliability.md), and cancel storms
 * (calls cancelled at once) with an exact outcome per call, after which the server is healthy.
 * Sized by the caller: the fast part small, the stress part 1 000 and 3 000.
 */
import { expect } from "@jest/globals";
import { createToolsClient, type SpawnedServer } from "@grok-tools/client";
import { readFileSync } from "node:fs";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { settledMemory, type InspectedServer, type SettledMemory } from "./heap.js";
import { processesWith, waitFor } from "./processes.js";
import { check } from "../../../scripts/suite-report.mjs";
import { alive } from "./server.js";

/** The server's resident memory in bytes (VmRSS of /proc/<pid>/status). */
export function rssBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) * 1024;
}

const MiB = 2 ** 20;

/**
 * How far each measure may end above the idle level after two rounds of load, each measured after
 * a full collection (the reasons are in docs/reliability.md, "What the load check judges"):
 * - live heap: what the load compiles stays (optimized code, its deoptimization data, feedback);
 *   measured +2 to +3.7 MiB after 200 to 4 000 calls, flat from the second round on;
 * - live heap from the first round to the second: a per-call leak shows here whatever the warm-up;
 *   measured at most +0.5 MiB per 1 000-call round;
 * - native memory V8 tracks (Buffers and the like): measured unchanged;
 * - RSS: the allocator keeps freed memory for reuse (glibc's per-thread arenas, V8's committed
 *   pages); measured +2 to +10 MiB. The bound catches a native leak of 16 KiB per call;
 * - open descriptors: the socket pair made ahead for the next command exists or not depending on
 *   how the last command started (see memoryProblems).
 */
export const MEMORY_BOUNDS = {
  heapGrowth: 8 * MiB,
  heapGrowthSecondRound: 1 * MiB,
  externalGrowth: 1 * MiB,
  rssGrowth: 32 * MiB,
  descriptorGrowth: 2,
};

const FILES = 20;

/** Files `load/f<i>.txt`, each holding tokens `T<i>-<k>` for the edits of one round. */
async function seed(workspace: string, round: number, perFile: number): Promise<void> {
  await mkdir(path.join(workspace, "load"), { recursive: true });
  for (let f = 0; f < FILES; f++) {
    const lines = Array.from({ length: perFile }, (_, k) => `R${round}-T${f}-${k} pending`);
    await writeFile(path.join(workspace, "load", `f${f}.txt`), `${lines.join("\n")}\n`);
  }
}

/** One round of `calls` concurrent mixed calls; returns the problems. */
async function mixedRound(server: SpawnedServer, workspace: string, round: number, calls: number): Promise<string[]> {
  const edits = Math.floor(calls / 4);
  const perFile = Math.ceil(edits / FILES);
  await seed(workspace, round, perFile);
  for (let f = 0; f < FILES; f++) {
    const read = await server.client.executeTool("read_file", { target_file: `load/f${f}.txt` });
    if (!read.ok) return [`seed read f${f}: ${read.error.message}`];
  }
  const problems: string[] = [];
  const call = async (i: number): Promise<void> => {
    const kind = i % 4;
    let result;
    if (kind === 0) {
      const e = i / 4;
      const f = e % FILES;
      const k = Math.floor(e / FILES);
      if (k >= perFile) return;
      result = await server.client.executeTool("search_replace", {
        file_path: `load/f${f}.txt`,
        old_string: `R${round}-T${f}-${k} pending`,
        new_string: `R${round}-T${f}-${k} done`,
      });
    } else if (kind === 1) result = await server.client.executeTool("read_file", { target_file: `load/f${i % FILES}.txt` });
    else if (kind === 2) result = await server.client.executeTool("grep", { pattern: `R${round}-T${i % FILES}-` });
    else result = await server.client.executeTool("run_terminal_cmd", { command: `echo call-${i}`, description: "load" });
    if (!result.ok) problems.push(`call ${i} (kind ${kind}): ${result.error.code} ${result.error.message.slice(0, 120)}`);
    else if (kind === 3 && !result.promptText.includes(`call-${i}`)) problems.push(`call ${i}: ${result.promptText.slice(0, 80)}`);
  };
  await Promise.all(Array.from({ length: calls }, (_, i) => call(i).catch((error: Error) => void problems.push(`call ${i} threw: ${error.message}`))));
  // No lost edit: every token of this round is done, in every file.
  for (let f = 0; f < FILES; f++) {
    const text = await readFile(path.join(workspace, "load", `f${f}.txt`), "utf8");
    const pending = text.split("\n").filter((l) => l.endsWith(" pending"));
    const planned = Array.from({ length: perFile }, (_, k) => f + k * FILES).filter((e) => e < edits && e * 4 < calls).length;
    const done = text.split("\n").filter((l) => l.endsWith(" done")).length;
    if (done !== planned) problems.push(`f${f}: ${done} of ${planned} edits kept (${pending.length} pending)`);
  }
  return problems;
}

/** One call of each kind the load mixes, so that what the server makes once per process counts as idle. */
async function warmUp(server: SpawnedServer, workspace: string): Promise<void> {
  await writeFile(path.join(workspace, "warm-up.txt"), "warm-up pending\n");
  const calls = [
    () => server.client.executeTool("read_file", { target_file: "warm-up.txt" }),
    () => server.client.executeTool("search_replace", { file_path: "warm-up.txt", old_string: "warm-up pending", new_string: "warm-up done" }),
    () => server.client.executeTool("grep", { pattern: "warm-up" }),
    () => server.client.executeTool("run_terminal_cmd", { command: "echo warm-up", description: "warm-up" }),
  ];
  for (const call of calls) {
    const result = await call();
    if (!result.ok) throw new Error(`warm-up call failed: ${result.error.message}`);
  }
}

/** What ended above its bound, by how much. */
export function memoryProblems(idle: SettledMemory, first: SettledMemory, second: SettledMemory): string[] {
  const problems: string[] = [];
  const over = (what: string, growth: number, bound: number) => {
    if (growth > bound) problems.push(`${what} grew ${(growth / MiB).toFixed(2)} MiB, bound ${(bound / MiB).toFixed(0)} MiB`);
  };
  over("live heap since idle", second.heapUsed - idle.heapUsed, MEMORY_BOUNDS.heapGrowth);
  over("live heap in the second round", second.heapUsed - first.heapUsed, MEMORY_BOUNDS.heapGrowthSecondRound);
  over("external memory since idle", second.external - idle.external, MEMORY_BOUNDS.externalGrowth);
  over("RSS since idle", second.rss - idle.rss, MEMORY_BOUNDS.rssGrowth);
  // Every descriptor a call opened is closed again: sockets, pipes, files. Two more than idle at most:
  // the socket pair made ahead for the next command that starts cold (a session's spare launchers,
  // one socket each, are there either way once a command ran).
  if (second.fds > idle.fds + MEMORY_BOUNDS.descriptorGrowth) problems.push(`${second.fds} open descriptors, ${idle.fds} when idle`);
  return problems;
}

const shown = (m: SettledMemory) =>
  `heap ${(m.heapUsed / MiB).toFixed(1)} MiB, external ${(m.external / MiB).toFixed(1)} MiB, RSS ${(m.rss / MiB).toFixed(1)} MiB, ${m.fds} fds`;

/**
 * Two rounds of `calls` concurrent mixed calls after a warm-up: 0 errors, every edit kept, and
 * the server's memory back to its idle level afterwards. The idle level is read before any load
 * (after start-up and one call of each kind), each reading after a full collection in the server.
 */
export async function mixedLoad(inspected: InspectedServer, workspace: string, calls: number): Promise<void> {
  const { server } = inspected;
  await check(
    `load: ${calls} concurrent mixed calls twice, no error, no lost edit, memory back to idle`,
    async () => {
      await warmUp(server, workspace);
      const idle = await settledMemory(inspected);
      expect(await mixedRound(server, workspace, 0, calls)).toEqual([]);
      const peak = rssBytes(server.process.pid!);
      const first = await settledMemory(inspected);
      expect(await mixedRound(server, workspace, 1, calls)).toEqual([]);
      const second = await settledMemory(inspected);
      console.log(
        `load: server idle: ${shown(idle)}; RSS after ${calls} calls before collection ${(peak / MiB).toFixed(1)} MiB; ` +
          `after round 1: ${shown(first)}; after round 2: ${shown(second)}`,
      );
      expect(memoryProblems(idle, first, second)).toEqual([]);
      expect(alive(server)).toBe(true);
      return calls * 2;
    },
    calls * 2,
  );
}

/**
 * The only outcomes a client can see for a call it cancels, by whether the answer had come before
 * the cancel: an answer that came first is the tool's result (a read of a.txt: ok); otherwise the
 * client's own CANCELLED. grpc-js ends a call it cancels at once with CANCELLED ("Cancelled on
 * client"), whatever the server or the connection does afterwards, so no other status can reach
 * it; INTERNAL ("RST_STREAM code 2") only reaches calls that were still waiting when nghttp2 closed
 * their connection, which is why the storm has a connection of its own (docs/reliability.md).
 */
function expectedOutcome(kind: "sleep" | "read", answeredBeforeCancel: boolean): string {
  if (kind === "sleep") return "CANCELLED"; // `sleep 30` never answers within the storm.
  return answeredBeforeCancel ? "ok" : "CANCELLED";
}

/**
 * `calls` calls (half `sleep 30` commands, half reads) on a second connection, all cancelled at
 * once: each call ends exactly as {@link expectedOutcome} says, the server stays up, the next call
 * on the main connection works, and no command is left running.
 */
export async function cancelStorm(server: SpawnedServer, calls: number): Promise<void> {
  await check(
    `load: cancel storm of ${calls} calls, each CANCELLED or answered before the cancel`,
    async () => {
      const marker = `grt-storm-${process.pid}-${calls}`;
      // Its own HTTP/2 connection: grpc-js shares one connection between clients of the same
      // address by default, and 3 000 resets at once on a connection trip nghttp2's rapid-reset
      // guard (CVE-2023-44487), which closes that connection with INTERNAL_ERROR; a call of the main
      // client waiting on it would fail with INTERNAL. The server itself stays up, which is what this checks.
      const storm = createToolsClient({ address: server.address, channelOptions: { "grpc.use_local_subchannel_pool": 1 } });
      const controller = new AbortController();
      let cancelled = false;
      const outcomes = new Map<string, number>();
      const wrong: string[] = [];
      const pending = Array.from({ length: calls }, (_, i) => {
        const kind = i % 2 === 0 ? ("sleep" as const) : ("read" as const);
        const request =
          kind === "sleep"
            ? storm.executeTool(
                "run_terminal_cmd",
                { command: `bash -c 'exec -a ${marker} sleep 30'`, description: "storm", timeout: 60_000 },
                { signal: controller.signal },
              )
            : storm.executeTool("read_file", { target_file: "a.txt" }, { signal: controller.signal });
        const settle = (got: string, detail: string) => {
          outcomes.set(got, (outcomes.get(got) ?? 0) + 1);
          const expected = expectedOutcome(kind, !cancelled);
          if (got !== expected) wrong.push(`call ${i} (${kind}, ${cancelled ? "after" : "before"} the cancel): ${got} ${detail}, expected ${expected}`);
        };
        return request.then(
          (r) => settle(r.ok ? "ok" : `tool:${r.error.code}`, r.ok ? "" : r.error.message.slice(0, 120)),
          (e: { codeName?: string; message?: string }) => settle(e.codeName ?? "error", (e.message ?? String(e)).slice(0, 120)),
        );
      });
      // Cancel once the commands have started (or 10 s passed): all at once.
      await waitFor(() => processesWith(marker).length >= 10, 10_000);
      cancelled = true;
      controller.abort();
      await Promise.all(pending);
      storm.close();
      console.log(`cancel storm: ${JSON.stringify(Object.fromEntries(outcomes))}`);
      expect(wrong.slice(0, 10)).toEqual([]);
      expect(alive(server)).toBe(true);
      const next = await server.client.executeTool("read_file", { target_file: "a.txt" });
      expect(next.ok).toBe(true);
      expect(await waitFor(() => processesWith(marker).length === 0, 15_000, 100)).toBe(true);
      const after = await server.client.executeTool("run_terminal_cmd", { command: "echo healthy", description: "after" });
      expect(after.ok && after.promptText).toContain("healthy");
      return calls;
    },
    calls,
  );
}
