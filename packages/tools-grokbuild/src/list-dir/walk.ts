/**
 * A gitignore-aware directory walk with the standard filters of the reference's `ignore` walker:
 * hidden (dot) entries skipped, `.ignore` files honoured everywhere, `.gitignore` files and
 * `.git/info/exclude` honoured inside a git work tree, including those of the root's parents.
 * Symlinks are reported as entries and never followed. The global git excludes file is not read.
 */
import { existsSync, readFileSync, type Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

/** One entry met by the walk. */
export interface WalkEntry {
  /** Path components relative to the walk root. */
  parts: string[];
  /** 1 for the root's children. */
  depth: number;
  isDir: boolean;
  /** A regular file (false for folders, symlinks and special files). */
  isFile: boolean;
}

/** Options of {@link walkDirectory}. */
export interface WalkOptions {
  /** Honour `.gitignore` and git excludes (`.ignore` files and the hidden filter always apply). */
  respectGitignore: boolean;
  /** Deepest depth visited (1 = the root's children only). */
  maxDepth?: number;
  /** Stops the walk when aborted. */
  signal?: AbortSignal;
}

/** The ignore rules of one directory, tested with paths relative to it. */
interface Matcher {
  dir: string;
  rules: Ignore;
}

function loadRules(file: string): Ignore | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  return text.trim() === "" ? undefined : ignore({ allowRelativePaths: true }).add(text);
}

/** The folder holding `.git` for `dir` (itself or an ancestor), or undefined outside a work tree. */
export function findRepoRoot(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, ".git"))) return current;
    if (path.dirname(current) === current) return undefined;
  }
}

/** Rules found in one directory, in precedence order (`.ignore` wins over `.gitignore`). */
function matchersOf(dir: string, gitActive: boolean): Matcher[] {
  const out: Matcher[] = [];
  const own = loadRules(path.join(dir, ".ignore"));
  if (own) out.push({ dir, rules: own });
  if (gitActive) {
    const git = loadRules(path.join(dir, ".gitignore"));
    if (git) out.push({ dir, rules: git });
  }
  return out;
}

/**
 * Whether `abs` is ignored: the deepest matcher with an opinion decides (a `!` rule re-includes).
 * Matchers are ordered from the most specific to the least.
 */
function isIgnored(matchers: readonly Matcher[], abs: string, isDir: boolean): boolean {
  for (const { dir, rules } of matchers) {
    const rel = path.relative(dir, abs);
    if (rel === "" || rel.startsWith("..")) continue;
    const result = rules.test(isDir ? `${rel}/` : rel);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/**
 * Walks `root` depth-first (children in name order) and calls `visit` for each kept entry; `visit`
 * returns false to stop the walk. Folders are read asynchronously so a large tree does not block
 * other sessions.
 */
export async function walkDirectory(root: string, options: WalkOptions, visit: (entry: WalkEntry) => boolean): Promise<void> {
  const repoRoot = options.respectGitignore ? findRepoRoot(root) : undefined;
  const gitActive = repoRoot !== undefined;
  // Rules of the root's parents, nearest first (spec: the walker reads parent ignore files too).
  const parentMatchers: Matcher[] = [];
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    const inRepo = gitActive && repoRoot !== undefined && (dir === repoRoot || dir.startsWith(`${repoRoot}/`));
    parentMatchers.push(...matchersOf(dir, inRepo));
    if (path.dirname(dir) === dir) break;
  }
  if (repoRoot !== undefined) {
    const exclude = loadRules(path.join(repoRoot, ".git", "info", "exclude"));
    if (exclude) parentMatchers.push({ dir: repoRoot, rules: exclude });
  }
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  let stopped = false;

  const walk = async (dir: string, parts: string[], inherited: readonly Matcher[]): Promise<void> => {
    const depth = parts.length + 1;
    if (depth > maxDepth || stopped) return;
    if (options.signal?.aborted) {
      stopped = true;
      return;
    }
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const matchers = [...matchersOf(dir, gitActive), ...inherited];
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (stopped) return;
      if (entry.name.startsWith(".")) continue;
      const abs = path.join(dir, entry.name);
      const isDir = entry.isDirectory();
      if (isIgnored(matchers, abs, isDir)) continue;
      const childParts = [...parts, entry.name];
      if (!visit({ parts: childParts, depth, isDir, isFile: entry.isFile() })) {
        stopped = true;
        return;
      }
      if (isDir) await walk(abs, childParts, matchers);
    }
  };
  await walk(root, [], parentMatchers);
}
