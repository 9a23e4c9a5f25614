/**
 * Checks a child's working directory (spec §4.9): it must exist and be a directory.
 */
import { statPath } from "@grok-tools/runtime/fs";

/** `ok`, `missing` or `not_directory`. */
export async function directoryState(dir: string): Promise<"ok" | "missing" | "not_directory"> {
  try {
    return (await statPath(dir)).isDirectory() ? "ok" : "not_directory";
  } catch {
    return "missing";
  }
}
