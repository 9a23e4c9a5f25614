/**
 * Breadth-first listing of a folder down to a depth: no ignore files, hidden entries included,
 * sorted by relative path (byte order), each line indented two spaces per level and marked
 * `/` (folder), `@` (symlink) or `?` (anything else but a file).
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
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

/** Every entry down to `maxDepth` levels, sorted by relative path. Read errors propagate. */
async function collectEntries(root: string, maxDepth: number): Promise<Entry[]> {
  const entries: Entry[] = [];
  const queue: { dir: string; rel: string; depth: number }[] = [{ dir: root, rel: "", depth: 0 }];
  while (queue.length > 0) {
    const { dir, rel, depth } = queue.shift() as { dir: string; rel: string; depth: number };
    const children = (await readdir(dir, { withFileTypes: true })).map((dirent) => {
      const relPath = rel === "" ? dirent.name : `${rel}/${dirent.name}`;
      const kind: EntryKind = dirent.isSymbolicLink() ? "symlink" : dirent.isDirectory() ? "dir" : dirent.isFile() ? "file" : "other";
      return {
        entry: { key: takeUtf8Bytes(relPath.replaceAll("\\", "/"), MAX_ENTRY_LENGTH_BYTES), name: takeUtf8Bytes(dirent.name, MAX_ENTRY_LENGTH_BYTES), depth, kind },
        abs: path.join(dir, dirent.name),
        relPath,
      };
    });
    children.sort((a, b) => compareUtf8(a.entry.key, b.entry.key));
    for (const child of children) {
      entries.push(child.entry);
      if (child.entry.kind === "dir" && depth + 1 < maxDepth) queue.push({ dir: child.abs, rel: child.relPath, depth: depth + 1 });
    }
  }
  return entries.sort((a, b) => compareUtf8(a.key, b.key));
}

/** `{indent}{name}{marker}`. */
function formatEntry(entry: Entry): string {
  const marker = entry.kind === "dir" ? "/" : entry.kind === "symlink" ? "@" : entry.kind === "other" ? "?" : "";
  return `${" ".repeat(entry.depth * INDENTATION_SPACES)}${entry.name}${marker}`;
}

/** The page of lines, or the reference's error text (without throwing) as `{ error }`. */
export async function listDirPage(
  root: string,
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
