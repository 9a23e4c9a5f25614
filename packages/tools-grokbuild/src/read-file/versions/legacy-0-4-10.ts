/**
 * Legacy 0.4.10 behaviour of read_file: every read failure becomes the generic
 * `Failed to read file: {path}` (no OS detail), and gitignored files are readable.
 */

/** The contract version name. */
export const LEGACY_0_4_10 = "legacy-0.4.10";

/** The historical read-failure text, with the canonical (or joined) path. */
export function renderLegacyReadError(path: string): string {
  return `Failed to read file: ${path}`;
}

/** Legacy reads ignore the gitignore policy. */
export const LEGACY_ALLOWS_GITIGNORED_READS = true;
