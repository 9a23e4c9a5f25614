/**
 * A workspace snapshot: every path below a folder (lstat, links not followed) mapped to its type,
 * mode, size, sha256 and link target. Two snapshots that compare equal mean nothing was written.
 */
import { createHash } from "node:crypto";
import { lstat, readFile, readdir, readlink } from "node:fs/promises";
import path from "node:path";

export type Snapshot = Record<string, string>;

/** Every path below `dir` (relative to `dir`), described in one string each. */
export async function snapshot(dir: string): Promise<Snapshot> {
  const out: Snapshot = {};
  const walk = async (rel: string): Promise<void> => {
    const full = path.join(dir, rel);
    const st = await lstat(full);
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isSymbolicLink()) out[rel] = `link ${mode} -> ${await readlink(full)}`;
    else if (st.isFile())
      out[rel] = `file ${mode} ${st.size} ${createHash("sha256")
        .update(await readFile(full))
        .digest("hex")}`;
    else if (st.isDirectory()) {
      out[rel] = `dir ${mode}`;
      for (const name of (await readdir(full)).sort()) await walk(rel === "" ? name : path.join(rel, name));
    } else out[rel] = `special ${mode} ${st.isFIFO() ? "fifo" : st.isSocket() ? "socket" : "other"}`;
  };
  await walk("");
  return out;
}

/** The paths whose description differs between two snapshots, with both sides. */
export function snapshotDiff(before: Snapshot, after: Snapshot): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .sort()
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k}: ${before[k] ?? "(absent)"} => ${after[k] ?? "(absent)"}`);
}
