/**
 * The gitignore policy of file reads (spec §4.2): read_file refuses an ignored file only when the
 * host turned the filter on and asked for gitignore to be respected. Both are off by default.
 */
import path from "node:path";
import ignore from "ignore";
import { defineService, type SessionHandle } from "@grok-tools/runtime";
import { readFileConfined, type FsScope } from "@grok-tools/runtime/fs";

/** Host-set switches (the reference's host-seeded `GitignoreFilter` and `RespectGitignore`). */
export interface GitignorePolicy {
  /** A gitignore filter over the workspace exists (the reference's `GitignoreFilter`). */
  filterEnabled: boolean;
  /** `RespectGitignore`: undefined when the host did not say. read_file needs it explicitly true. */
  respectGitignore: boolean | undefined;
}

/** The session's gitignore policy: `ctx.session.service(GITIGNORE_POLICY)`. */
export const GITIGNORE_POLICY = defineService<GitignorePolicy, SessionHandle>({
  name: "grok_build.GitignorePolicy",
  create: () => ({ filterEnabled: false, respectGitignore: undefined }),
});

/** The text of an ignore file, or undefined when it is missing or not a regular file inside the session's roots. */
async function readIgnoreFile(scope: FsScope, file: string): Promise<string | undefined> {
  return readFileConfined(scope, file).then(
    (read) => read.bytes.toString("utf8"),
    () => undefined,
  );
}

/**
 * Whether `absPath` is ignored by the `.gitignore` files between `root` and it (and
 * `.git/info/exclude`). Deeper files win, and a negation re-includes. Paths outside `root` are not ignored.
 * Ignore files are read confined to `scope` (a link out of the roots, a FIFO or a device counts as no file).
 */
export async function isGitignored(scope: FsScope, root: string, absPath: string): Promise<boolean> {
  const relative = path.relative(root, absPath);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return false;
  const parts = relative.split(path.sep);
  let ignored = false;
  const exclude = await readIgnoreFile(scope, path.join(root, ".git", "info", "exclude"));
  const layers: { dir: string; rules: string }[] = [];
  if (exclude !== undefined) layers.push({ dir: root, rules: exclude });
  for (let depth = 0; depth < parts.length; depth++) {
    const dir = path.join(root, ...parts.slice(0, depth));
    const rules = await readIgnoreFile(scope, path.join(dir, ".gitignore"));
    if (rules !== undefined) layers.push({ dir, rules });
  }
  for (const layer of layers) {
    const matcher = ignore().add(layer.rules);
    const rel = path.relative(layer.dir, absPath).split(path.sep);
    // A folder that is ignored hides everything below it; check each ancestor folder, then the file.
    for (let i = 1; i <= rel.length; i++) {
      const candidate = rel.slice(0, i).join("/") + (i < rel.length ? "/" : "");
      const result = matcher.test(candidate);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
  }
  return ignored;
}
