/**
 * Checks a child's working directory (spec §4.9): it must exist and be a directory.
 */
import { stat } from "node:fs/promises";

/** `ok`, `missing` or `not_directory`. */
export async function directoryState(dir: string): Promise<"ok" | "missing" | "not_directory"> {
  try {
    return (await stat(dir)).isDirectory() ? "ok" : "not_directory";
  } catch {
    return "missing";
  }
}
