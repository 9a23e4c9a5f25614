/**
 * Rust's `Path::join` for the paths the reference joins onto its working directory: an absolute path
 * wins, and nothing is normalized (`a/../b` stays as written), so messages show the path as given.
 */
import path from "node:path";

/** `cwd.join(given)`. */
export function joinLikeRust(cwd: string, given: string): string {
  if (path.isAbsolute(given)) return given;
  return cwd.endsWith("/") ? `${cwd}${given}` : `${cwd}/${given}`;
}
