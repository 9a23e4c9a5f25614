/**
 * The `legacy-0.4.10` list_dir renderer (spec §3.5, §4.4): depth thresholds instead of a budget.
 * The root is summarized at 1500 children, depth-1 folders at 15, deeper folders always; when the
 * listing exceeds the byte limit every subfolder is summarized and a note is appended. The quirks of
 * the original (the root's own summary is always empty) are kept on purpose.
 */
import { ExtensionTally, asciiLower, byteLength, extensionKey } from "../tree.js";
import { type CheckedDir } from "@grok-tools/runtime/fs";
import { walkDirectory } from "../walk.js";

/** Default byte limit of the legacy listing. */
export const LEGACY_DEFAULT_MAX_OUTPUT_BYTES = 40_000;
const ROOT_SUMMARIZATION_THRESHOLD = 1500;
const SUBDIR_SUMMARIZATION_THRESHOLD = 15;
const FULL_THRESHOLDS: readonly number[] = [ROOT_SUMMARIZATION_THRESHOLD, SUBDIR_SUMMARIZATION_THRESHOLD];
const SHALLOW_THRESHOLDS: readonly number[] = [ROOT_SUMMARIZATION_THRESHOLD];
const OVER_LIMIT_NOTE = "[Subdirectories not expanded: listing exceeds size limit. Use list_dir on a specific subdirectory to see its contents.]";

interface Child {
  isDir: boolean;
  name: string;
  key: string;
}

interface DirectoryView {
  depth: number;
  childCount: number;
  children: Child[] | null;
  subtree: ExtensionTally;
}

function shouldSummarize(depth: number, childCount: number, thresholds: readonly number[]): boolean {
  const threshold = thresholds[depth];
  return threshold === undefined || childCount >= threshold;
}

/** Renders the body of a legacy listing of `root` (without the header line). */
export async function renderLegacy(root: CheckedDir, maxOutputBytes: number, signal?: AbortSignal): Promise<string> {
  const levels = FULL_THRESHOLDS.length;
  const views = new Map<string, DirectoryView>();
  const viewOf = (key: string, depth: number): DirectoryView => {
    let view = views.get(key);
    if (!view) {
      view = { depth, childCount: 0, children: depth < levels ? [] : null, subtree: new ExtensionTally() };
      views.set(key, view);
    }
    return view;
  };
  viewOf("", 0);
  await walkDirectory(root, { respectGitignore: true, ...(signal ? { signal } : {}) }, (entry) => {
    const key = entry.parts.join("/");
    const depth = entry.depth;
    if (entry.isDir && depth <= levels) viewOf(key, depth);
    const parentDepth = depth - 1;
    if (parentDepth <= levels) {
      const parent = viewOf(entry.parts.slice(0, -1).join("/"), parentDepth);
      parent.childCount += 1;
      if (parent.children) {
        parent.children.push({ isDir: entry.isDir, name: entry.parts[entry.parts.length - 1]!, key });
        if (shouldSummarize(parent.depth, parent.childCount, FULL_THRESHOLDS)) parent.children = null;
      }
    }
    if (entry.isFile) {
      const ext = extensionKey(entry.parts[entry.parts.length - 1]!);
      // The original tallies the first `levels` paths below the root on the way to the file (the
      // file itself included when it is that shallow), each under the depth of its position.
      const chain = entry.parts.map((_, i) => entry.parts.slice(0, i + 1).join("/"));
      chain.slice(0, levels).forEach((ancestor, index) => viewOf(ancestor, index).subtree.add(ext));
    }
    return true;
  });
  for (const view of views.values()) {
    view.children?.sort((a, b) => {
      const ka = asciiLower(a.name);
      const kb = asciiLower(b.name);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  }
  let lines = render(views, FULL_THRESHOLDS);
  if (outputByteCount(lines) > maxOutputBytes) lines = [...render(views, SHALLOW_THRESHOLDS), OVER_LIMIT_NOTE];
  return lines.length > 1 ? lines.slice(1).join("\n") : "";
}

function render(views: ReadonlyMap<string, DirectoryView>, thresholds: readonly number[]): string[] {
  const lines: string[] = [];
  const renderDir = (key: string, name: string): void => {
    const view = views.get(key);
    if (!view) return;
    lines.push(`${"  ".repeat(view.depth)}- ${name}/`);
    const childIndent = "  ".repeat(view.depth + 1);
    if (shouldSummarize(view.depth, view.childCount, thresholds)) {
      const summary = view.subtree.summary();
      if (summary !== "") lines.push(`${childIndent}${summary}`);
      return;
    }
    for (const child of view.children ?? []) {
      if (child.isDir) renderDir(child.key, child.name);
      else lines.push(`${childIndent}- ${child.name}`);
    }
  };
  renderDir("", "");
  return lines;
}

function outputByteCount(lines: readonly string[]): number {
  if (lines.length === 0) return 0;
  return lines.reduce((sum, line) => sum + byteLength(line), 0) + lines.length - 1;
}
