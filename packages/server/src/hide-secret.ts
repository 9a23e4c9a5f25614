/**
 * Hides a secret from other processes' view of this one: overwrites its bytes in the process's
 * original argument block (/proc/PID/cmdline, what `ps` shows) and its environment block
 * (/proc/PID/environ). Linux only, through /proc/self/mem; deleting from process.env alone leaves
 * the original environ block untouched, and Node 20 cannot exec itself anew.
 *
 * The secret is visible there from exec until this runs (Node's start-up, a few hundred ms):
 * `--auth-token-file` is the way to never show it.
 */
import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";

/** What could be hidden: `true` done (or nothing to hide), `false` not possible here. */
export interface HideResult {
  argv: boolean;
  environ: boolean;
}

/** Byte written over each byte of the secret. */
const MASK = 0x2a; // '*'

/**
 * Replaces every occurrence of `secret` in the argument block with `*`s, and the value of each
 * `NAME=...` entry of `envNames` in the environment block. Call after reading the secret and
 * deleting the variables from process.env (process.env reads the same bytes).
 */
export function hideSecretFromProcessView(secret: string, envNames: readonly string[]): HideResult {
  const bounds = memoryBounds();
  if (!bounds) return { argv: false, environ: false };
  let fd: number;
  try {
    fd = openSync("/proc/self/mem", "r+");
  } catch {
    return { argv: false, environ: false };
  }
  try {
    const needle = Buffer.from(secret, "utf8");
    const argv = rewrite(fd, bounds.argStart, bounds.argEnd, (block) => maskAll(block, needle));
    const environ = rewrite(fd, bounds.envStart, bounds.envEnd, (block) => maskEnvValues(block, envNames));
    return { argv, environ };
  } finally {
    closeSync(fd);
  }
}

interface Bounds {
  argStart: number;
  argEnd: number;
  envStart: number;
  envEnd: number;
}

/** Fields 48-51 of /proc/self/stat (Linux 3.5+): where the argument and environment blocks are. */
function memoryBounds(): Bounds | undefined {
  let stat: string;
  try {
    stat = readFileSync("/proc/self/stat", "utf8");
  } catch {
    return undefined;
  }
  // Fields after the parenthesised command name start at field 3.
  const fields = stat
    .slice(stat.lastIndexOf(")") + 2)
    .trim()
    .split(" ");
  const field = (n: number) => Number(fields[n - 3]);
  const bounds = { argStart: field(48), argEnd: field(49), envStart: field(50), envEnd: field(51) };
  const valid = Object.values(bounds).every((v) => Number.isSafeInteger(v) && v > 0) && bounds.argEnd > bounds.argStart && bounds.envEnd >= bounds.envStart;
  return valid ? bounds : undefined;
}

/** Reads [start, end), lets `edit` change it in place, writes back the changed bytes; false when memory is not accessible. */
function rewrite(fd: number, start: number, end: number, edit: (block: Buffer) => boolean): boolean {
  if (end === start) return true;
  const block = Buffer.alloc(end - start);
  try {
    if (readSync(fd, block, 0, block.length, start) !== block.length) return false;
    if (!edit(block)) return true;
    return writeSync(fd, block, 0, block.length, start) === block.length;
  } catch {
    return false;
  }
}

function maskAll(block: Buffer, needle: Buffer): boolean {
  if (needle.length === 0) return false;
  let changed = false;
  for (let at = block.indexOf(needle); at !== -1; at = block.indexOf(needle, at + needle.length)) {
    block.fill(MASK, at, at + needle.length);
    changed = true;
  }
  return changed;
}

function maskEnvValues(block: Buffer, names: readonly string[]): boolean {
  let changed = false;
  let start = 0;
  while (start < block.length) {
    let end = block.indexOf(0, start);
    if (end === -1) end = block.length;
    for (const name of names) {
      const prefix = Buffer.from(`${name}=`);
      if (end - start >= prefix.length && block.subarray(start, start + prefix.length).equals(prefix)) {
        block.fill(MASK, start + prefix.length, end);
        changed = true;
      }
    }
    start = end + 1;
  }
  return changed;
}
