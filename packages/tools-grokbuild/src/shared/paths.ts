/**
 * Path helpers of read_file: the display path (the argument joined onto the cwd as written), the
 * SKILL.md exemption, and the Unicode look-alike file-name fallback (U+202F / U+00A0 vs space).
 */
import path from "node:path";
import { openDirConfined, type FsScope } from "@grok-tools/runtime/fs";

/** `cwd.join(raw)` as Rust does it: an absolute argument replaces the cwd; nothing is normalised. */
export function displayJoin(cwd: string, raw: string): string {
  if (raw.startsWith("/")) return raw;
  if (raw === "") return cwd.endsWith("/") ? cwd : `${cwd}/`;
  return cwd.endsWith("/") ? `${cwd}${raw}` : `${cwd}/${raw}`;
}

/**
 * Files read in full (no line window, no token cap): any `SKILL.md`, and `.md` files with a
 * `skills` path component after folding `.`/`..` lexically.
 */
export function isSkillMarkdown(p: string): boolean {
  const base = path.posix.basename(p);
  if (base === "SKILL.md") return true;
  const ext = path.posix.extname(p);
  if (ext.toLowerCase() !== ".md" || base === ext) return false;
  const stack: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") stack.pop();
    else stack.push(part);
  }
  return stack.includes("skills");
}

const normalizeFileName = (name: string): string => name.replace(/[\u202F\u00A0]/g, " ");

/**
 * For a missing file, the one sibling whose name differs only by look-alike spaces, or undefined
 * (also when the exact name exists or several siblings match). The folder is listed through its
 * checked descriptor: a folder outside the session's roots (or swapped for a link to one) is not
 * listed, so not even the existence of a name there is revealed.
 */
export async function resolveUnicodeFileName(scope: FsScope, p: string): Promise<string | undefined> {
  const name = path.basename(p);
  const parent = path.dirname(p);
  if (name === "" || name === "." || name === "..") return undefined;
  const entries = await listNames(scope, parent);
  if (entries === undefined || entries.includes(name)) return undefined;
  const target = normalizeFileName(name);
  const found = entries.filter((entry) => normalizeFileName(entry) === target);
  return found.length === 1 ? path.join(parent, found[0] as string) : undefined;
}

/** The names in a folder inside the roots, or undefined when it cannot be listed there. */
async function listNames(scope: FsScope, folder: string): Promise<string[] | undefined> {
  let dir;
  try {
    dir = await openDirConfined(scope, folder);
  } catch {
    return undefined;
  }
  try {
    return (await dir.entries()).map((entry) => entry.name);
  } catch {
    return undefined;
  } finally {
    await dir.close();
  }
}
