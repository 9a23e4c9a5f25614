/**
 * The current `list_dir` renderer (spec §4.4, §13.6–7): walk (depth-1 seed, then the deep walk with
 * an item cap), then breadth-first expansion of folders within a byte budget; folders that do not
 * fit stay collapsed as summary lines.
 */
import { DirNode, byteLength } from "./tree.js";
import { type CheckedDir } from "@grok-tools/runtime/fs";
import { walkDirectory } from "./walk.js";

/** Default byte budget of the listing (`max_output_chars`). */
export const DEFAULT_MAX_OUTPUT_CHARS = 10_000;
/** Cap on entries below depth 1 (and, separately, on depth-1 entries). */
export const MAX_GLOBAL_ITEMS = 100_000;

/** Builds the tree of the checked folder `root`; `truncated` when an item cap was hit. */
export async function buildTree(
  root: CheckedDir,
  respectGitignore: boolean,
  signal?: AbortSignal,
  maxItems: number = MAX_GLOBAL_ITEMS,
): Promise<{ tree: DirNode; truncated: boolean }> {
  const tree = new DirNode(0);
  let seedCount = 0;
  let seedTruncated = false;
  await walkDirectory(root, { respectGitignore, maxDepth: 1, ...(signal ? { signal } : {}) }, (entry) => {
    seedCount += 1;
    if (seedCount > maxItems) {
      seedTruncated = true;
      return false;
    }
    tree.addItem(entry.parts, entry.isDir);
    return true;
  });
  let itemCount = 0;
  let walkTruncated = false;
  await walkDirectory(root, { respectGitignore, ...(signal ? { signal } : {}) }, (entry) => {
    if (entry.depth <= 1) return true;
    itemCount += 1;
    if (itemCount > maxItems) {
      walkTruncated = true;
      return false;
    }
    tree.addItem(entry.parts, entry.isDir);
    return true;
  });
  tree.sortRecursive();
  return { tree, truncated: seedTruncated || walkTruncated };
}

/** Expands folders breadth-first within `maxChars` bytes and returns the body. */
export function budgetExpand(root: DirNode, maxChars: number, truncated: boolean, rootNotice: string): string {
  const cutoff = truncated ? `\nNote: there are more than ${MAX_GLOBAL_ITEMS} items in the directory, so not all files may be shown.\n` : "";
  if (root.files.length === 0 && root.subdirs.length === 0) return cutoff;
  root.expanded = true;
  const rootExpanded = root.renderExpanded();
  if (byteLength(rootExpanded) > maxChars) return renderTruncatedRoot(root, maxChars, rootNotice) + cutoff;
  let remaining = maxChars - byteLength(rootExpanded);
  const queue: DirNode[] = root.subdirs.map((name) => root.children.get(name)!);
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    node.expanded = true;
    const expandedLength = byteLength(node.renderExpanded());
    const summaryCost = node.summaryCost();
    if (expandedLength > remaining + summaryCost) {
      node.expanded = false;
      continue;
    }
    remaining = remaining + summaryCost - expandedLength;
    for (const name of node.subdirs) queue.push(node.children.get(name)!);
  }
  return root.renderExpanded() + cutoff;
}

/** Root items (each with its summary line) while they fit, then the notice. */
function renderTruncatedRoot(root: DirNode, maxChars: number, notice: string): string {
  let out = "";
  let remaining = maxChars;
  const summaryIndent = "  ".repeat(root.depth + 2);
  for (const name of root.allItemsSorted()) {
    let chunk = `${root.itemLine(name)}\n`;
    const summary = root.children.get(name)?.subtree.summary() ?? "";
    if (summary !== "") chunk += `${summaryIndent}${summary}\n`;
    const cost = byteLength(chunk);
    if (cost > remaining) break;
    out += chunk;
    remaining -= cost;
  }
  return out + notice;
}
