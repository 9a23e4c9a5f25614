/**
 * A gitignore-aware directory walk with the standard filters of the reference's `ignore` walker:
 * hidden (dot) entries skipped, `.ignore` files honoured everywhere, `.gitignore` files and
 * `.git/info/exclude` honoured inside a git work tree, including those of the root's parents.
 * Symlinks are reported as entries and never followed. The global git excludes file is not read.
 * Every folder, and every ignore file, is reached through the descriptor of its checked parent
 * (issue #12 item 6): a folder swapped for a link while the walk runs is skipped, not followed.
 * Ignore files that are links are not read, as git does not read them either.
 */
import type { Dirent } from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { type CheckedDir } from "@grok-tools/runtime/fs";

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

/** The rules of the ignore file `relative` below `dir`, never read through a link (git, since 2.32, does not follow them either). */
async function loadRules(dir: CheckedDir, relative: string): Promise<Ignore | undefined> {
  let text: string;
  try {
    text = await dir.readTextNoFollow(relative);
  } catch {
    return undefined;
  }
  return text.trim() === "" ? undefined : ignore({ allowRelativePaths: true }).add(text);
}

/** Whether the folder has a `.git` entry (a folder, or the file of a linked work tree). */
async function hasGitEntry(dir: CheckedDir): Promise<boolean> {
  return dir.lstatEntry(".git").then(
    () => true,
    () => false,
  );
}

/** Rules found in one directory, in precedence order (`.ignore` wins over `.gitignore`). */
async function matchersOf(dir: CheckedDir, gitActive: boolean): Promise<Matcher[]> {
  const out: Matcher[] = [];
  const own = await loadRules(dir, ".ignore");
  if (own) out.push({ dir: dir.realPath, rules: own });
  if (gitActive) {
    const git = await loadRules(dir, ".gitignore");
    if (git) out.push({ dir: dir.realPath, rules: git });
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
 * The ignore rules of the root's ancestors, nearest first, with `.git/info/exclude` of the work
 * tree last (spec: the walker reads parent ignore files too). Ancestors are opened as `..` from
 * the root's descriptor: the physical parents, whatever their paths meanwhile.
 */
async function ancestorMatchers(root: CheckedDir, respectGitignore: boolean): Promise<{ matchers: Matcher[]; gitActive: boolean }> {
  const ancestors: CheckedDir[] = [];
  try {
    for (let current = root; current.realPath !== "/";) {
      const parent = await current.openParent().catch(() => undefined);
      if (parent === undefined || parent.realPath === current.realPath) {
        await parent?.close();
        break;
      }
      ancestors.push(parent);
      current = parent;
    }
    const chain = [root, ...ancestors];
    let repoIndex = -1;
    if (respectGitignore) {
      for (let i = 0; i < chain.length && repoIndex === -1; i++) if (await hasGitEntry(chain[i]!)) repoIndex = i;
    }
    const gitActive = repoIndex !== -1;
    const matchers: Matcher[] = [];
    for (let i = 0; i < ancestors.length; i++) matchers.push(...(await matchersOf(ancestors[i]!, gitActive && i + 1 <= repoIndex)));
    if (gitActive) {
      const repo = chain[repoIndex]!;
      const exclude = await loadRules(repo, ".git/info/exclude");
      if (exclude) matchers.push({ dir: repo.realPath, rules: exclude });
    }
    return { matchers, gitActive };
  } finally {
    for (const dir of ancestors) await dir.close();
  }
}

/**
 * Walks `root` depth-first (children in name order) and calls `visit` for each kept entry; `visit`
 * returns false to stop the walk. Folders are read asynchronously so a large tree does not block
 * other sessions. The caller keeps `root` open and closes it.
 */
export async function walkDirectory(root: CheckedDir, options: WalkOptions, visit: (entry: WalkEntry) => boolean): Promise<void> {
  const { matchers: parentMatchers, gitActive } = await ancestorMatchers(root, options.respectGitignore);
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  let stopped = false;

  const walk = async (dir: CheckedDir, parts: string[], inherited: readonly Matcher[]): Promise<void> => {
    const depth = parts.length + 1;
    if (depth > maxDepth || stopped) return;
    if (options.signal?.aborted) {
      stopped = true;
      return;
    }
    let entries: Dirent[];
    try {
      entries = await dir.entries();
    } catch {
      return;
    }
    const matchers = [...(await matchersOf(dir, gitActive)), ...inherited];
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (stopped) return;
      if (entry.name.startsWith(".")) continue;
      const abs = path.join(dir.realPath, entry.name);
      const isDir = entry.isDirectory();
      if (isIgnored(matchers, abs, isDir)) continue;
      const childParts = [...parts, entry.name];
      if (!visit({ parts: childParts, depth, isDir, isFile: entry.isFile() })) {
        stopped = true;
        return;
      }
      if (!isDir || depth + 1 > maxDepth) continue;
      // Never through a link: a folder replaced by one since it was listed is not entered.
      const child = await dir.openChild(entry.name).catch(() => undefined);
      if (child === undefined) continue;
      try {
        await walk(child, childParts, matchers);
      } finally {
        await child.close();
      }
    }
  };
  await walk(root, [], parentMatchers);
}
