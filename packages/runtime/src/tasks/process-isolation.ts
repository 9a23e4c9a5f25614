/**
 * Detects, once per process, how commands can be contained so that killing one kills its
 * whole tree: a PID namespace (`unshare` or bubblewrap) where the kernel allows it, else
 * the process group alone (decision D4). It does not spawn commands; the runner does.
 */
import { spawnSync } from "node:child_process";

/** How spawned commands are contained. */
export interface ProcessIsolation {
  /** `pid-namespace`: every descendant, `setsid` ones included, dies with the command. */
  readonly mode: "pid-namespace" | "process-group";
  /** The argv prefix placed before `<shell> -c <command>` (empty for `process-group`). */
  readonly prefix: readonly string[];
  /** One line for the server's startup log. */
  readonly detail: string;
}

/** Set to `process-group` to skip namespace detection (tests, hosts that sandbox otherwise). */
export const ISOLATION_ENV_VAR = "GROK_TOOLS_PROCESS_ISOLATION";

const PROBE_TIMEOUT_MS = 5_000;

/** Candidate wrappers, best first. `--kill-child` makes the namespace die with its parent. */
const CANDIDATES: ReadonlyArray<{ name: string; prefix: readonly string[] }> = [
  { name: "unshare", prefix: ["unshare", "--pid", "--fork", "--kill-child"] },
  { name: "unshare (user namespace)", prefix: ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--kill-child"] },
  { name: "bubblewrap", prefix: ["bwrap", "--dev-bind", "/", "/", "--unshare-pid", "--die-with-parent", "--"] },
];

/** The process-group fallback. */
export const PROCESS_GROUP_ISOLATION: ProcessIsolation = Object.freeze({
  mode: "process-group",
  prefix: Object.freeze([]) as readonly string[],
  detail: "PID namespaces unavailable (unshare/bwrap failed); commands run in their own process group only, so a descendant that calls setsid can outlive a kill unless it keeps the task's environment marker",
});

let cached: ProcessIsolation | undefined;

/**
 * How commands will be contained in this process. Probes the candidates once (a few ms)
 * and caches the answer; the server logs `detail` at startup.
 */
export function detectProcessIsolation(): ProcessIsolation {
  if (cached) return cached;
  if (process.platform !== "linux" || process.env[ISOLATION_ENV_VAR] === "process-group") {
    cached = process.platform !== "linux" ? { ...PROCESS_GROUP_ISOLATION, detail: `PID namespaces are Linux-only (platform ${process.platform}); commands run in their own process group only` } : { ...PROCESS_GROUP_ISOLATION, detail: `${ISOLATION_ENV_VAR}=process-group: commands run in their own process group only` };
    return cached;
  }
  for (const candidate of CANDIDATES) {
    const [file, ...args] = candidate.prefix;
    const probe = spawnSync(file!, [...args, "/bin/sh", "-c", "exit 0"], { stdio: "ignore", timeout: PROBE_TIMEOUT_MS });
    if (probe.status === 0) {
      cached = Object.freeze({ mode: "pid-namespace", prefix: Object.freeze([...candidate.prefix]), detail: `commands run in their own PID namespace via ${candidate.name}` });
      return cached;
    }
  }
  cached = PROCESS_GROUP_ISOLATION;
  return cached;
}
