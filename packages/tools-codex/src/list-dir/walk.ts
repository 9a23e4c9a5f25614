/**
 * Breadth-first listing of a folder down to a depth: no ignore files, hidden entries included,
 * sorted by relative path (byte order), each line indented two spaces per level and marked
 * `/` (folder), `@` (symlink) or `?` (anything else but a file). Folders are read through the
 * descriptor of their checked parent, never through a link (issue #12 item 6).
 */
import { type CheckedDir } from "@grok-tools/runtime/fs";
import { takeUtf8Bytes } from "../shared/rust-text.js";

/** Longest entry name shown, in UTF-8 bytes. */
export const MAX_ENTRY_LENGTH_BYTES = 500;
const INDENTATION_SPACES = 2;

type EntryKind = "dir" | "file" | "symlink" | "other";

interface Entry {
  /** Relative path from the root: the sort key. */
  key: string;
  name: string;
  depth: number;
  kind: EntryKind;
}

/** Compares like Rust's `String::cmp`: by UTF-8 bytes. */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** Errors of a subfolder that changed since it was listed: removed, replaced, or swapped for a link. */
const ENTRY_GONE: ReadonlySet<string> = new Set(["ENOENT", "ENOTDIR", "ELOOP"]);

/**
 * Every entry down to `maxDepth` levels, sorted by relative path. Read errors propagate, except
 * that a subfolder that is no longer a folder when it is entered (removed, or swapped for a link)
 * is listed but not entered.
 */
async function collectEntries(root: CheckedDir, maxDepth: number): Promise<Entry[]> {
  const entries: Entry[] = [];
  // Depth first, one descriptor per level; the order does not matter, everything is sorted at the end.
  const visit = async (dir: CheckedDir, rel: string, depth: number): Promise<void> => {
    for (const dirent of await dir.entries()) {
      const relPath = rel === "" ? dirent.name : `${rel}/${dirent.name}`;
      const kind: EntryKind = dirent.isSymbolicLink() ? "symlink" : dirent.isDirectory() ? "dir" : dirent.isFile() ? "file" : "other";
      entries.push({
        key: takeUtf8Bytes(relPath.replaceAll("\\", "/"), MAX_ENTRY_LENGTH_BYTES),
        name: takeUtf8Bytes(dirent.name, MAX_ENTRY_LENGTH_BYTES),
        depth,
        kind,
      });
      if (kind !== "dir" || depth + 1 >= maxDepth) continue;
      const child = await dir.openChild(dirent.name).catch((error: unknown) => {
        if (ENTRY_GONE.has((error as NodeJS.ErrnoException).code ?? "")) return undefined;
        throw error;
      });
      if (child === undefined) continue;
      try {
        await visit(child, relPath, depth + 1);
      } finally {
        await child.close();
      }
    }
  };
  await visit(root, "", 0);
  return entries.sort((a, b) => compareUtf8(a.key, b.key));
}

/** `{indent}{name}{marker}`. */
function formatEntry(entry: Entry): string {
  const marker = entry.kind === "dir" ? "/" : entry.kind === "symlink" ? "@" : entry.kind === "other" ? "?" : "";
  return `${" ".repeat(entry.depth * INDENTATION_SPACES)}${entry.name}${marker}`;
}

/** The page of lines, or the reference's error text (without throwing) as `{ error }`. */
export async function listDirPage(
  root: CheckedDir,
  offset: number,
  limit: number,
  depth: number,
): Promise<{ lines: string[] } | { error: "offset"; total: number }> {
  const entries = await collectEntries(root, depth);
  if (entries.length === 0) return { lines: [] };
  const start = offset - 1;
  if (start >= entries.length) return { error: "offset", total: entries.length };
  const end = Math.min(start + limit, entries.length);
  const lines = entries.slice(start, end).map(formatEntry);
  if (end < entries.length) lines.push(`More than ${end - start} entries found`);
  return { lines };
}
