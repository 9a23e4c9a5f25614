/**
 * Rejects a `pkill -f <pat>` (or `pgrep -f <pat> … kill`) whose literal pattern also appears
 * elsewhere in the command: `-f` matches the wrapper shell's own argv, so the command would
 * kill itself before the rest of the script runs (spec §4.1).
 */

const PKILL_PATTERN =
  /(?:^|[;&|(\n])\s*(?<cmd>pkill|pgrep)(?<args>(?:\s+-[A-Za-z]*f[A-Za-z]*|\s+--full\b)+)\s+(?:'(?<sq>[^']*)'|"(?<dq>[^"]*)"|(?<bare>[^\s;&|()]+))/gm;
const KILL_TOKEN = /(?:^|[\s;&|()])kill(?:\s|$)/;
const MIN_PATTERN_LENGTH = 3;

/** A self-matching invocation: the command word and its literal pattern. */
export interface SelfMatchingPkill {
  cmd: "pkill" | "pgrep";
  pattern: string;
}

/** The first self-matching `pkill -f` / `pgrep -f … kill` in `command`, if any. */
export function findSelfMatchingPkill(command: string): SelfMatchingPkill | undefined {
  for (const match of command.matchAll(PKILL_PATTERN)) {
    const groups = match.groups ?? {};
    const pattern = groups.sq ?? groups.dq ?? groups.bare;
    if (pattern === undefined) return undefined;
    if (
      Buffer.byteLength(pattern) < MIN_PATTERN_LENGTH ||
      pattern.includes("$(") ||
      pattern.includes("$`") ||
      pattern.startsWith("`") ||
      pattern.includes("${")
    )
      continue;
    const start = match.index ?? 0;
    const rest = `${command.slice(0, start)}\n${command.slice(start + match[0].length)}`;
    const cmd = groups.cmd === "pgrep" ? "pgrep" : "pkill";
    if (cmd === "pgrep" && !KILL_TOKEN.test(rest)) continue;
    if (rest.includes(pattern)) return { cmd, pattern };
  }
  return undefined;
}

/** The reference's rejection text. */
export function selfMatchingPkillMessage({ cmd, pattern }: SelfMatchingPkill): string {
  return `self-matching ${cmd}/-f: \`${cmd} -f <pat>\` matches against the full /proc/PID/cmdline of every process, including the bash wrapper that runs this command (its argv contains \`${pattern}\`). The wrapper would be killed by the resulting signal before the rest of the script runs. Use one of: \`pkill -x <basename>\` (no \`-f\`), \`pgrep -f <pat> | xargs -r kill\` invoked from a separate command, a fully-qualified path that does not appear later in the script, or kill by PID file.`;
}
