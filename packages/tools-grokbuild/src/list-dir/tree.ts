/**
 * The directory tree of the current `list_dir` renderer and its collapsed-summary lines
 * (`[N files in subtree: a *.rs, b *.toml, ...]`). Sizes are UTF-8 bytes, as the reference counts.
 */

/** Extension buckets shown in a collapsed summary. */
export const TOP_K_EXTENSIONS = 3;

/** ASCII-only lower-casing (the reference's `to_ascii_lowercase`). */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Sorts names case-insensitively (ASCII), keeping the original order of equal keys. */
export function sortNames(names: string[]): string[] {
  return names
    .map((name) => ({ name, key: asciiLower(name) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((entry) => entry.name);
}

/** Extension key of a file name: lower-cased extension, or `no-ext` (Rust `Path::extension` rules). */
export function extensionKey(name: string): string {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return "no-ext";
  return asciiLower(name.slice(dot + 1));
}

/** File counts of a subtree by extension. */
export class ExtensionTally {
  total = 0;
  readonly byExt = new Map<string, number>();

  add(ext: string): void {
    this.total += 1;
    this.byExt.set(ext, (this.byExt.get(ext) ?? 0) + 1);
  }

  /** `[3 files in subtree: 2 *.rs, 1 *.toml]`, or "" when the subtree has no files. */
  summary(topN: number = TOP_K_EXTENSIONS): string {
    if (this.byExt.size === 0) return "";
    const items = [...this.byExt.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    let shown = 0;
    const parts = items.slice(0, topN).map(([ext, count]) => {
      shown += count;
      return ext === "no-ext" ? `${count} *no-ext` : `${count} *.${ext}`;
    });
    const more = shown < this.total ? ", ..." : "";
    return `[${this.total} ${this.total === 1 ? "file" : "files"} in subtree: ${parts.join(", ")}${more}]`;
  }
}

/** Byte length of a string in UTF-8. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** A folder of the tree; subfolder names end with `/`. */
export class DirNode {
  readonly files: string[] = [];
  readonly subdirs: string[] = [];
  readonly children = new Map<string, DirNode>();
  readonly subtree = new ExtensionTally();
  expanded = false;

  constructor(readonly depth: number) {}

  /** Adds a file or folder at `parts` below this node (missing folders are created). */
  addItem(parts: readonly string[], isDir: boolean): void {
    const [first, ...rest] = parts;
    if (first === undefined) return;
    if (rest.length === 0) {
      if (isDir) this.childFor(`${first}/`);
      else {
        this.files.push(first);
        this.subtree.add(extensionKey(first));
      }
      return;
    }
    this.childFor(`${first}/`).addItem(rest, isDir);
    if (!isDir) this.subtree.add(extensionKey(rest[rest.length - 1]!));
  }

  private childFor(key: string): DirNode {
    let child = this.children.get(key);
    if (!child) {
      child = new DirNode(this.depth + 1);
      this.children.set(key, child);
      this.subdirs.push(key);
    }
    return child;
  }

  /** Sorts files and folders case-insensitively, recursively. */
  sortRecursive(): void {
    const files = sortNames(this.files);
    this.files.splice(0, this.files.length, ...files);
    const dirs = sortNames(this.subdirs);
    this.subdirs.splice(0, this.subdirs.length, ...dirs);
    for (const child of this.children.values()) child.sortRecursive();
  }

  /** Files and folders interleaved, case-insensitively sorted (folders sort with their `/`). */
  allItemsSorted(): string[] {
    return sortNames([...this.files, ...this.subdirs]);
  }

  itemLine(name: string): string {
    return `${"  ".repeat(this.depth + 1)}- ${name}`;
  }

  summaryCost(): number {
    const summary = this.subtree.summary();
    return summary === "" ? 0 : (this.depth + 1) * 2 + byteLength(summary) + 1;
  }

  /** This node's children, recursing into expanded children. */
  renderExpanded(): string {
    let out = "";
    for (const name of this.allItemsSorted()) {
      out += `${this.itemLine(name)}\n`;
      const child = this.children.get(name);
      if (child) out += child.renderSubtree();
    }
    return out;
  }

  /** Expanded: the children; collapsed: the summary line (nothing for an empty folder). */
  renderSubtree(): string {
    if (this.expanded) return this.renderExpanded();
    const summary = this.subtree.summary();
    return summary === "" ? "" : `${"  ".repeat(this.depth + 1)}${summary}\n`;
  }
}
