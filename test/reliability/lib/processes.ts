/**
 * Process checks through the real server: commands that leave descendants (setsid, nohup,
 * double forks) end with nothing left after a timeout, a cancel or kill_task; stdin readers see
 * EOF; a fork bomb stops at its session's process limit. Survivors are found by a marker that
 * every descendant carries as its argv[0], in this machine's /proc (the host's view).
 */
import type { SpawnedServer, ToolsClient } from "@grok-tools/client";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

/** Pids whose command line holds `marker` (the wrappers that carry the command text included). */
export function processesWith(marker: string): number[] {
  return scan((cmdline) => cmdline.includes(marker));
}

/** Pids whose argv[0] starts with `marker`: the sleepers themselves. */
export function sleepersWith(marker: string): number[] {
  return scan((cmdline) => cmdline.split("\0")[0]!.startsWith(marker));
}

function scan(match: (cmdline: string) => boolean): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (match(readFileSync(`/proc/${name}/cmdline`, "latin1"))) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Polls until `condition` holds or `timeoutMs` passes; returns whether it held. */
export async function waitFor(condition: () => boolean, timeoutMs: number, stepMs = 25): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (condition()) return true;
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

/** A command whose descendants all carry `marker` and try every way out of a process group. */
export function escapingCommand(marker: string): string {
  const sleeper = `bash -c 'exec -a ${marker} sleep 1000'`;
  return [`(setsid ${sleeper} &)`, `(${sleeper} &)`, `nohup ${sleeper} >/dev/null 2>&1 &`, `setsid -f ${sleeper}`, `exec -a ${marker} sleep 1000`].join("\n");
}

export type EndBy = "timeout" | "cancel" | "kill_task";

/** Runs one escaping command ended by `how`; returns the problems found (none when all is well). */
export async function runAndEnd(server: SpawnedServer, marker: string, how: EndBy): Promise<string[]> {
  const problems: string[] = [];
  const command = escapingCommand(marker);
  if (how === "timeout") {
    const result = await server.client.executeTool("run_terminal_cmd", { command, description: "escape", timeout: 1500 });
    if (!result.ok || !/killed \(timeout\)|timed out/.test(result.promptText))
      problems.push(`${marker}: timeout answered ${result.ok ? result.promptText.slice(0, 80) : result.error.message}`);
  } else if (how === "cancel") {
    const controller = new AbortController();
    const call = server.client.executeTool("run_terminal_cmd", { command, description: "escape", timeout: 60_000 }, { signal: controller.signal }).then(
      () => "answered",
      () => "cancelled",
    );
    if (!(await waitFor(() => sleepersWith(marker).length >= 5, 20_000)))
      problems.push(`${marker}: descendants did not start (${sleepersWith(marker).length} of 5)`);
    controller.abort();
    await call;
  } else {
    const started = await server.client.executeTool("run_terminal_cmd", { command, description: "escape", is_background: true });
    const id = started.ok ? (started.output as { task_id?: string }).task_id : undefined;
    if (!id) return [`${marker}: background start answered ${started.ok ? started.promptText.slice(0, 120) : started.error.message}`];
    if (!(await waitFor(() => sleepersWith(marker).length >= 5, 20_000)))
      problems.push(`${marker}: descendants did not start (${sleepersWith(marker).length} of 5)`);
    const killed = await server.client.executeTool("kill_task", { task_id: id });
    if (!killed.ok) problems.push(`${marker}: kill_task answered ${killed.error.message}`);
  }
  if (!(await waitFor(() => processesWith(marker).length === 0, 5_000))) problems.push(`${marker} (${how}): survivors ${processesWith(marker).join(",")}`);
  return problems;
}

/** Commands that read stdin: each must see EOF at once and finish, never time out. */
export const STDIN_READERS = [
  "cat",
  'read x; echo "read:[$x]"',
  "head -n 1",
  "wc -c",
  "sed -n p",
  "awk '{print}'",
  "python3 -c 'import sys; print(len(sys.stdin.read()))' 2>/dev/null || echo no-python",
  "bash -c 'read -t 30 y; echo rc=$?'",
  "grep -c x; true",
  "sort",
];

/** Runs each stdin reader; returns the problems. */
export async function runStdinReaders(server: SpawnedServer): Promise<string[]> {
  const problems: string[] = [];
  for (const command of STDIN_READERS) {
    const result = await server.client.executeTool("run_terminal_cmd", { command, description: "stdin", timeout: 20_000 });
    if (!result.ok || /killed|timed out|background/i.test(result.promptText))
      problems.push(`${command}: ${result.ok ? result.promptText.slice(0, 100) : result.error.message}`);
  }
  return problems;
}

/**
 * A classic fork bomb; its command then waits on a FIFO opened read-write (a builtin read, no fork
 * needed once the limit is reached) until the timeout kills it.
 */
export const FORK_BOMB = 'p=$(mktemp -u); mkfifo "$p"; bomb() { bomb | bomb & }; bomb 2>/dev/null; read -r x <> "$p"';

/** The server's pids cgroup as the host sees it (process-limit.ts names it after the server's pid). */
export function limitGroup(serverPid: number): string | undefined {
  for (const dir of [
    `/sys/fs/cgroup/pids/grok-tools-${serverPid}`,
    `/sys/fs/cgroup/grok-tools-${serverPid}`,
    `/sys/fs/cgroup/unified/grok-tools-${serverPid}`,
  ]) {
    try {
      readFileSync(`${dir}/pids.max`);
      return dir;
    } catch {
      // Not there.
    }
  }
  return undefined;
}

/**
 * The pids cgroup a routed session's commands run in, as the host sees it: a command of the
 * session reads its own `/proc/self/cgroup` (v1 `N:pids:/path`, v2 `0::/path`; commands share
 * the host's cgroup namespace), and the path is taken under the hierarchy holding `serverGroup`.
 */
export async function sessionGroup(client: ToolsClient, serverGroup: string): Promise<string> {
  const result = await client.executeTool<{ output?: string }>("run_terminal_cmd", {
    command: "cat /proc/self/cgroup",
    description: "cgroup",
    timeout: 20_000,
  });
  const text = result.ok ? (result.output.output ?? "") : "";
  const v1 = /^\d+:(?:[^:]*,)?pids(?:,[^:]*)?:(\/.*)$/m.exec(text)?.[1];
  const v2 = /^0::(\/.*)$/m.exec(text)?.[1];
  const relative = serverGroup.startsWith("/sys/fs/cgroup/pids/") ? v1 : v2;
  if (!relative) throw new Error(`no pids cgroup in the command's /proc/self/cgroup: ${result.ok ? JSON.stringify(text) : result.error.message}`);
  return path.join(path.dirname(serverGroup), relative);
}

/** A number file of a cgroup (`pids.current`), or the `max` count of `pids.events`. */
export function cgroupNumber(dir: string, file: "pids.current" | "pids.max" | "pids.events"): number {
  const text = readFileSync(`${dir}/${file}`, "utf8");
  if (file === "pids.events") return Number(/max (\d+)/.exec(text)?.[1] ?? 0);
  return Number(text.trim());
}
