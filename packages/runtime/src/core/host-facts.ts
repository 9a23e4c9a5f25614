/**
 * Facts about the host a tool may need (not about the workspace): whether a command is on PATH,
 * whether the server runs under WSL, and the whole numbers of its `GROK_*` environment caps. None
 * reads workspace files; all are cheap and synchronous.
 */
import { accessSync, constants, readFileSync } from "node:fs";
import path from "node:path";

/** Options of {@link findOnPath}. */
export interface FindOnPathOptions {
  /** The PATH to search (`process.env.PATH` when omitted). */
  readonly envPath?: string | undefined;
  /** Folders searched after PATH (e.g. `/usr/sbin` for system tools a restricted PATH lacks). */
  readonly extraDirs?: readonly string[];
}

/** The full path of the first executable `name` in PATH's folders (then `extraDirs`), or undefined. */
export function findOnPath(name: string, options: FindOnPathOptions = {}): string | undefined {
  const envPath = "envPath" in options ? options.envPath : process.env.PATH;
  const dirs = [...(envPath ?? "").split(path.delimiter), ...(options.extraDirs ?? [])];
  for (const dir of dirs) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

let wslCache: boolean | undefined;

/** Whether this process runs under WSL (its file system is several times slower). Read once. */
export function isWsl(): boolean {
  if (wslCache === undefined) {
    try {
      wslCache = /microsoft/i.test(readFileSync("/proc/version", "utf8"));
    } catch {
      wslCache = false;
    }
  }
  return wslCache;
}

/**
 * A whole number from the environment (the `GROK_*` caps): the variable's digits, spaces around them
 * ignored, when they are a whole number of at least `min`; otherwise (unset, empty, a sign, a unit,
 * a fraction, below `min`) `fallback`. Read at each use, so a changed environment applies next time.
 */
export function wholeNumberFromEnv(name: string, fallback: number, min = 0, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name]?.trim();
  if (raw === undefined || !/^\d+$/.test(raw)) return fallback;
  const value = Number(raw);
  return value >= min ? value : fallback;
}
